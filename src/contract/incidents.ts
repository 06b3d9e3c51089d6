/**
 * The incident answers (GET /incidents, /incidents/{id}, the commands' answers) and the pending
 * escalations (GET /escalations): written once here; queries/incidents.ts and queries/escalations.ts
 * are typed from them, src/openapi/incidents.ts documents them, the console imports their types.
 */
import { z } from 'zod';
import { instant, optionalText, resourceId } from './answer-pieces.js';
import {
  CONDITIONS,
  DELIVERY_KINDS,
  ESCALATION_CANCEL_REASONS,
  ESCALATION_STATUSES,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  RESOLUTION_REASONS,
  SEVERITIES,
} from './vocabulary.js';

const firedStage = z.object({ stage_order: z.number().int(), cycle: z.number().int(), fired_at: instant });

/** One delivery of an incident's escalation (`recipient`: `user:<id>` or `channel:<id>`). */
export const notifiedDeliverySchema = z.object({
  kind: z.enum(DELIVERY_KINDS),
  stage_order: z.number().int().nullable(),
  cycle: z.number().int().nullable(),
  recipient: optionalText,
  medium: optionalText,
  target: z.string(),
  ok: z.boolean(),
  at: instant,
  error: optionalText,
});
export type NotifiedDelivery = z.infer<typeof notifiedDeliverySchema>;

/** The escalation summary an incident carries (src/events/incident.ts, publicIncident). */
export const incidentEscalationSchema = z.object({
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
  notified: z.array(notifiedDeliverySchema),
});
export type IncidentEscalationView = z.infer<typeof incidentEscalationSchema>;

const senderFieldsAnswer = z.object({
  source: optionalText,
  component: optionalText,
  group: optionalText,
  class: optionalText,
  timestamp: instant.nullable(),
  severity: optionalText.meta({ description: "the sender's own severity word" }),
  custom_details: z.unknown().nullable(),
  links: z.array(z.object({ href: z.string(), text: optionalText })),
  images: z.array(z.object({ src: z.string(), href: optionalText, alt: optionalText })),
  client: optionalText,
  client_url: optionalText,
  labels: z.record(z.string(), z.string()).nullable(),
});

const noRule = 'null when the incident has no rule (`source` other than `rule`)';

export const incidentSchema = z.object({
  id: resourceId,
  source: z.union([z.enum(INCIDENT_SOURCES), z.templateLiteral(['integration:', z.uuid()])]).meta({
    description:
      "what opened it: `rule` (a rule's condition), `rule_error` (rules whose warehouse reads fail or return no data), `heartbeat`, `platform` (the platform watching its own jobs), `integration:<id>` (a sender outside the platform, docs/integrations.md)",
  }),
  title: z.string().meta({ description: "a human headline (a rule incident's is its rule's name)" }),
  detail: optionalText.meta({
    description: "why, in the source's words (the warehouse's message, a heartbeat's note)",
  }),
  rule_ids: z.array(resourceId).meta({ description: 'the rules concerned (a rule incident: its rule)' }),
  rule_id: resourceId.nullable().meta({ description: noRule }),
  rule_name: z.string().nullable().meta({ description: noRule }),
  status: z.enum(INCIDENT_STATUSES),
  severity: z.enum(SEVERITIES),
  current_value: z
    .number()
    .nullable()
    .meta({ description: 'the metric value at creation; null when there is no reading (not a `rule` incident)' }),
  metric: z.string().nullable().meta({ description: noRule }),
  condition: z.enum(CONDITIONS).nullable().meta({ description: noRule }),
  threshold: z.number().nullable().meta({ description: noRule }),
  env_id: resourceId.nullable().meta({ description: 'null when the source belongs to no environment' }),
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
  ordinal: z.number().int().meta({ description: "the rule's (or the source's) n-th incident" }),
  dedup_key: optionalText.meta({ description: "the sender's dedup key (an integration's incident), else null" }),
  alert_count: z.number().int().meta({
    description:
      'triggers taken: 1, and one more for each repeated trigger of its dedup key while it is open (repeats page nobody)',
  }),
  last_alert_at: instant.meta({ description: 'when its last trigger arrived (its opening, or the last repeat)' }),
  sender: senderFieldsAnswer
    .nullable()
    .meta({ description: "what the sender said beside the headline (an integration's incident), else null" }),
  next_escalation_at: instant.nullable(),
  escalation: incidentEscalationSchema,
});
export type Incident = z.infer<typeof incidentSchema>;

/** GET /incidents/{id}: with `?as_of=` the incident as it was then, the moment added. */
export const incidentAsOfSchema = incidentSchema.extend({
  as_of: instant.optional().meta({ description: 'the moment asked for (only with `?as_of=`)' }),
});
export type IncidentAsOf = z.infer<typeof incidentAsOfSchema>;

export const pendingEscalationSchema = z.object({
  incident_id: resourceId,
  title: z.string().meta({ description: "the incident's headline" }),
  rule_name: z.string().nullable().meta({ description: noRule }),
  severity: z.enum(SEVERITIES),
  policy_name: optionalText,
  next_stage: z.number().int().nullable(),
  cycle: z.number().int().nullable(),
  next_due_at: instant.nullable(),
  last_fired_stage: firedStage.nullable(),
});
export type PendingEscalation = z.infer<typeof pendingEscalationSchema>;
