import { z } from 'zod';

/** Events of the `incident-<id>` streams: the whole story of one incident, for auditors. */
export const incidentEvents = {
  IncidentTriggered: z.object({
    incidentId: z.uuid(),
    ruleId: z.uuid(),
    ruleName: z.string(),
    /** 1 for the rule's first incident, 2 for the next…; the incident id is derived from it. */
    ordinal: z.number().int().min(1),
    currentValue: z.number(),
    severity: z.enum(['critical', 'high', 'medium', 'low']),
    metric: z.string(),
    condition: z.enum(['gt', 'lt', 'gte', 'lte', 'eq']),
    threshold: z.number(),
    envId: z.uuid(),
    clusterId: z.string().nullable(),
    escalationPolicyId: z.uuid(),
    triggeredAt: z.iso.datetime(),
  }),
  IncidentAcknowledged: z.object({ incidentId: z.uuid(), by: z.string(), at: z.iso.datetime() }),
  IncidentResolved: z.object({
    incidentId: z.uuid(),
    by: z.string(),
    at: z.iso.datetime(),
    reason: z.enum(['auto', 'manual', 'rule_deleted']),
    note: z.string().nullable(),
    /** The metric value that cleared the condition (automatic resolution). */
    value: z.number().nullable(),
  }),
  IncidentNoteAdded: z.object({ incidentId: z.uuid(), noteId: z.uuid(), text: z.string(), by: z.string(), at: z.iso.datetime() }),
};

type Data<K extends keyof typeof incidentEvents> = z.infer<(typeof incidentEvents)[K]>;
export type IncidentEvent = { [K in keyof typeof incidentEvents]: { type: K; data: Data<K> } }[keyof typeof incidentEvents];
export type IncidentTriggeredData = Data<'IncidentTriggered'>;
