/** Incidents, their history and live feed, and pending escalations (commands/incidents.ts and its routes, queries/incidents.ts, queries/escalations.ts). */
import { z } from 'zod';
import {
  acknowledgeIncidentBodySchema,
  incidentNoteBodySchema,
  resolveIncidentBodySchema,
} from '../../commands/incidents.js';
import { incidentListQuery } from '../../queries/incidents.js';
import { DELIVERY_KINDS, ESCALATION_CANCEL_REASONS, ESCALATION_STATUSES } from '../events/escalation.js';
import { RESOLUTION_REASONS } from '../events/incident.js';
import { CONDITIONS, SEVERITIES } from '../events/vocabulary.js';
import { apiInstant, SUPPORTED_INSTANTS } from '../http/api-instant.js';
import type { OperationDoc } from './operation.js';
import { historyEntrySchema, instant, optionalText, resourceId } from './shared-schemas.js';

const tag = 'Incidents';

const firedStage = z.object({ stage_order: z.number().int(), cycle: z.number().int(), fired_at: instant });

export const incidentSchema = z.object({
  id: resourceId,
  rule_id: resourceId,
  rule_name: z.string(),
  status: z.enum(['triggered', 'acknowledged', 'resolved']),
  severity: z.enum(SEVERITIES),
  current_value: z.number(),
  metric: z.string(),
  condition: z.enum(CONDITIONS),
  threshold: z.number(),
  env_id: resourceId,
  cluster_id: optionalText,
  escalation_policy_id: resourceId,
  triggered_at: instant,
  acknowledged_at: instant.nullable(),
  acknowledged_by: optionalText,
  resolved_at: instant.nullable(),
  resolved_by: optionalText,
  resolution_reason: z.enum(RESOLUTION_REASONS).nullable(),
  resolution_note: optionalText,
  resolution_value: z.number().nullable(),
  notes: z.array(z.object({ id: resourceId, text: z.string(), author: z.string(), created_at: instant })),
  ordinal: z.number().int().meta({ description: "the rule's n-th incident" }),
  next_escalation_at: instant.nullable(),
  escalation: z.object({
    status: z
      .enum(ESCALATION_STATUSES)
      .meta({ description: '`cancelled` once the incident is acknowledged or resolved' }),
    cancel_reason: z
      .enum(ESCALATION_CANCEL_REASONS)
      .nullable()
      .meta({ description: 'what cancelled the escalation (the first of the two)' }),
    held_by_window_id: resourceId
      .nullable()
      .meta({ description: 'the maintenance window holding the remaining stages (null: not held)' }),
    policy_name: optionalText,
    current_stage: firedStage.nullable(),
    notified: z.array(
      z.object({
        kind: z.enum(DELIVERY_KINDS),
        stage_order: z.number().int().nullable(),
        cycle: z.number().int().nullable(),
        recipient: optionalText,
        medium: optionalText,
        target: z.string(),
        ok: z.boolean(),
        at: instant,
        error: optionalText,
      }),
    ),
  }),
});

const pendingEscalationSchema = z.object({
  incident_id: resourceId,
  rule_name: z.string(),
  severity: z.enum(SEVERITIES),
  policy_name: optionalText,
  next_stage: z.number().int().nullable(),
  cycle: z.number().int().nullable(),
  next_due_at: instant.nullable(),
  last_fired_stage: firedStage.nullable(),
});

const incidentAnswer = (description: string, status: 200 | 201 = 200) =>
  ({ kind: 'envelope', status, description, data: incidentSchema }) as const;

export const incidentOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/incidents',
    tag,
    summary: 'List incidents',
    description: 'Newest first.',
    query: {
      ...incidentListQuery.shape,
      status: z.string().meta({ description: 'comma-separated statuses: triggered, acknowledged, resolved' }),
    },
    response: { kind: 'envelope', status: 200, description: 'A page of incidents', data: incidentSchema, list: true },
  },
  {
    method: 'get',
    path: '/incidents/:id',
    tag,
    summary: 'Get an incident, now or as it was at a moment',
    description:
      'With `as_of` (needs `audit:read` as well): the incident folded from its events up to that moment, with `as_of` added.',
    conditionalPermissions: [{ permission: 'audit:read', when: 'with `as_of`' }],
    query: { as_of: apiInstant.meta({ description: `ISO 8601 moment, ${SUPPORTED_INSTANTS}` }) },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The incident',
      data: incidentSchema.extend({
        as_of: instant.optional().meta({ description: 'the moment asked for (only with `?as_of=`)' }),
      }),
    },
  },
  {
    method: 'get',
    path: '/incidents/:id/events',
    tag,
    summary: "An incident's raw event history",
    response: {
      kind: 'envelope',
      status: 200,
      description: "Every event of the incident's stream, oldest first",
      data: z.array(historyEntrySchema),
    },
  },
  {
    method: 'post',
    path: '/incidents/:id/acknowledge',
    tag,
    summary: 'Acknowledge an incident (paging stops)',
    body: acknowledgeIncidentBodySchema,
    bodyOptional: true,
    description: 'Acknowledging an acknowledged incident changes nothing.',
    problems: { 409: 'The incident is resolved (`current_status`)' },
    response: incidentAnswer('The incident'),
  },
  {
    method: 'post',
    path: '/incidents/:id/resolve',
    tag,
    summary: 'Resolve an incident',
    body: resolveIncidentBodySchema,
    bodyOptional: true,
    problems: { 409: 'The incident is already resolved (`current_status`)' },
    response: incidentAnswer('The incident'),
  },
  {
    method: 'post',
    path: '/incidents/:id/notes',
    tag,
    summary: 'Add a note to an incident',
    body: incidentNoteBodySchema,
    description: 'Accepted in every state, also after resolution.',
    response: incidentAnswer('The incident with the note', 201),
  },
  {
    method: 'get',
    path: '/incidents/stream',
    tag,
    summary: "Live feed of the tenant's incident events",
    description:
      'Reconnect with `Last-Event-ID` (or `?last_event_id=`) to replay what was missed. Browsers authenticate with a stream ticket (`POST /api/v1/stream-tickets`).',
    query: {
      last_event_id: z
        .string()
        .regex(/^\d+$/)
        .meta({ description: 'replay from after this log position (as the Last-Event-ID header)' }),
      ticket: z.string().meta({ description: 'a stream ticket instead of the Authorization header' }),
    },
    headers: {
      'Last-Event-ID': {
        description: 'the `id:` of the last event received: replay what came after it, then continue live',
        schema: z.string().regex(/^\d+$/),
      },
    },
    problems: {
      400: "Unknown query parameter, or a Last-Event-ID beyond the log's head (`head_position`)",
      429: 'INCIDENT_STREAMS_PER_TENANT streams of the tenant are open already',
    },
    response: {
      kind: 'event-stream',
      description: 'Server-sent events',
      events:
        '`event:` the event type, `id:` the global log position, `data:` `{ type, incident_id, revision, occurred_at, actor, data }`; a `: heartbeat` comment every SSE_HEARTBEAT_SECONDS.',
    },
  },
  {
    method: 'get',
    path: '/escalations',
    tag: 'Escalation',
    summary: 'Pending escalations, soonest first',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'A page of pending escalations',
      data: pendingEscalationSchema,
      list: true,
    },
  },
];
