/**
 * Alert rules, the model: events of the `alertRule-<id>` streams (each carries the whole rule, so
 * the fold is trivial), the state a command sees, and how events change it.
 */
import { z } from 'zod';
import { conditionSchema, readFailureStateSchema, severitySchema } from './vocabulary.js';

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
  /**
   * What the rule does while its reads fail or return no value, and after how long (added with
   * the error and no-data states). Events written before carry none: such a rule behaves as it
   * always did (`ok`, see RULE_READ_FAILURE_BEFORE) until an edit sets them.
   */
  onError: readFailureStateSchema.optional(),
  onNoData: readFailureStateSchema.optional(),
  errorForMinutes: z.number().int().optional(),
};

/** How a rule stored before the error and no-data states behaves: as it did then (no page). */
export const RULE_READ_FAILURE_BEFORE = { onError: 'ok', onNoData: 'ok', errorForMinutes: 5 } as const;
/** What a new rule does unless told otherwise: page after five minutes (Grafana Alerting's default). */
export { RULE_READ_FAILURE_DEFAULT } from '../contract/vocabulary.js';

/** The rule's read-failure settings, those of a rule stored before they existed filled in. */
export const readFailureSettingsOf = (rule: Pick<AlertRuleData, 'onError' | 'onNoData' | 'errorForMinutes'>) => ({
  onError: rule.onError ?? RULE_READ_FAILURE_BEFORE.onError,
  onNoData: rule.onNoData ?? RULE_READ_FAILURE_BEFORE.onNoData,
  errorForMinutes: rule.errorForMinutes ?? RULE_READ_FAILURE_BEFORE.errorForMinutes,
});

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
