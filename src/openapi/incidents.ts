/** Incidents, their history and live feed, and pending escalations (commands/incidents.ts and its routes, queries/incidents.ts, queries/escalations.ts). */
import { z } from 'zod';
import {
  acknowledgeIncidentBodySchema,
  incidentNoteBodySchema,
  manualIncidentBodySchema,
  resolveIncidentBodySchema,
} from '../contract/bodies/incidents.js';
import { incidentListQuery } from '../../queries/incidents.js';
import { incidentAsOfSchema, incidentSchema, pendingEscalationSchema } from '../contract/incidents.js';
import { apiInstant, SUPPORTED_INSTANTS } from '../contract/api-instant.js';
import type { OperationDoc } from './operation.js';
import { historyEntrySchema } from './shared-schemas.js';

const tag = 'Incidents';

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
      data: incidentAsOfSchema,
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
    path: '/incidents',
    tag,
    summary: 'Page by hand: open an incident',
    body: manualIncidentBodySchema,
    description:
      'Opens a new incident (source `manual`, recorded as the caller) on an escalation policy of the tenant (400 otherwise), which pages as any other. Each request opens one.',
    response: {
      kind: 'envelope',
      status: 201,
      description: 'The incident',
      data: incidentSchema,
      location: true,
      etag: true,
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
      429: 'The caller already holds INCIDENT_STREAMS_PER_USER streams, or the tenant INCIDENT_STREAMS_PER_TENANT; the detail and `cap` (`per_user`, `per_tenant`) say which, `Retry-After` when to try again',
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
