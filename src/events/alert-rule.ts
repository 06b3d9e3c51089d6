import { z } from 'zod';

/** Events of the `alertRule-<id>` streams. Each carries the whole rule, so a fold is trivial. */
export const alertRuleFields = {
  ruleId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  metric: z.string(),
  condition: z.enum(['gt', 'lt', 'gte', 'lte', 'eq']),
  threshold: z.number(),
  evaluationWindowMinutes: z.number().int(),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  escalationPolicyId: z.uuid(),
  clusterId: z.string().nullable(),
  isEnabled: z.boolean(),
  /** The environment of the token that created the rule: which warehouse it watches. */
  envId: z.uuid(),
};

export const alertRuleEvents = {
  AlertRuleCreated: z.object(alertRuleFields),
  AlertRuleUpdated: z.object(alertRuleFields),
  AlertRuleDeleted: z.object({ ruleId: z.uuid() }),
};

export type AlertRuleData = z.infer<typeof alertRuleEvents.AlertRuleCreated>;

export type AlertRuleEvent =
  | { type: 'AlertRuleCreated'; data: AlertRuleData }
  | { type: 'AlertRuleUpdated'; data: AlertRuleData }
  | { type: 'AlertRuleDeleted'; data: { ruleId: string } };
