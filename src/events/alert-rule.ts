/**
 * Alert rules, the model: events of the `alertRule-<id>` streams (each carries the whole rule, so
 * the fold is trivial), the state a command sees, and how events change it.
 */
import { z } from 'zod';
import { conditionSchema, severitySchema } from './vocabulary.js';

export const alertRuleFields = {
  ruleId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  metric: z.string(),
  condition: conditionSchema,
  threshold: z.number(),
  evaluationWindowMinutes: z.number().int(),
  severity: severitySchema,
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

export const alertRuleStream = (id: string) => `alertRule-${id}`;

export interface AlertRuleState {
  status: 'absent' | 'active' | 'deleted';
  rule?: AlertRuleData;
}

export const initialAlertRuleState = (): AlertRuleState => ({ status: 'absent' });

export function evolveAlertRule(state: AlertRuleState, event: AlertRuleEvent): AlertRuleState {
  switch (event.type) {
    case 'AlertRuleCreated':
    case 'AlertRuleUpdated':
      return { status: 'active', rule: event.data };
    case 'AlertRuleDeleted':
      return { ...state, status: 'deleted' };
  }
}
