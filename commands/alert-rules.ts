/**
 * Alert rules: the decider, and the rule fields a body sets (the body as clients send it, SPEC.md
 * Alert rule, is src/contract/bodies/alert-rules.ts). A PATCH is merged here, onto the rule as its stream has it, never onto a read model
 * that may lag. The model is src/events/alert-rule.ts; the routes are commands/alert-rule-routes.ts.
 */
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveAlertRule,
  initialAlertRuleState,
  type AlertRuleData,
  type AlertRuleEvent,
  type AlertRuleState,
} from '../src/events/alert-rule.js';
import type { AlertRuleBody, AlertRulePatch } from '../src/contract/bodies/alert-rules.js';

/** The rule fields a body or a patch sets, in event terms (only the fields present). */
export function ruleFieldsFrom(body: AlertRulePatch): Partial<AlertRuleData> {
  const fields: Partial<AlertRuleData> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.description !== undefined) fields.description = body.description ?? null;
  if (body.metric !== undefined) fields.metric = body.metric;
  if (body.condition !== undefined) fields.condition = body.condition;
  if (body.threshold !== undefined) fields.threshold = body.threshold;
  if (body.evaluation_window_minutes !== undefined) fields.evaluationWindowMinutes = body.evaluation_window_minutes;
  if (body.severity !== undefined) fields.severity = body.severity;
  if (body.escalation_policy_id !== undefined) fields.escalationPolicyId = body.escalation_policy_id;
  if (body.cluster_id !== undefined) fields.clusterId = body.cluster_id ?? null;
  if (body.is_enabled !== undefined) fields.isEnabled = body.is_enabled;
  if (body.on_error !== undefined) fields.onError = body.on_error;
  if (body.on_no_data !== undefined) fields.onNoData = body.on_no_data;
  if (body.error_for_minutes !== undefined) fields.errorForMinutes = body.error_for_minutes;
  return fields;
}

/** A whole rule from a full body (POST, PUT): fields the body leaves out take their defaults. */
export const toRuleData = (ruleId: string, envId: string, body: AlertRuleBody): AlertRuleData =>
  ({
    ruleId,
    envId,
    description: null,
    clusterId: null,
    ...ruleFieldsFrom(body),
  }) as AlertRuleData;

/** The rule after a patch: the patch's fields over the rule's, id and environment kept. */
export const patchedRule = (rule: AlertRuleData, changes: Partial<AlertRuleData>): AlertRuleData => ({
  ...rule,
  ...changes,
  ruleId: rule.ruleId,
  envId: rule.envId,
});

export type AlertRuleCommand =
  | { kind: 'CreateAlertRule'; rule: AlertRuleData }
  | { kind: 'UpdateAlertRule'; rule: AlertRuleData }
  | { kind: 'PatchAlertRule'; ruleId: string; changes: Partial<AlertRuleData> }
  | { kind: 'DeleteAlertRule'; ruleId: string };

export const alertRuleDecider: Decider<AlertRuleState, AlertRuleCommand, AlertRuleEvent> = {
  initialState: initialAlertRuleState,
  evolve: evolveAlertRule,
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateAlertRule':
        if (state.status !== 'absent') throw rejectConflict('an alert rule with this id already exists');
        return [{ type: 'AlertRuleCreated', data: command.rule }];
      case 'UpdateAlertRule':
        if (state.status !== 'active') throw rejectNotFound('alert rule');
        // The rule keeps the environment it was created in, whoever edits it.
        return [{ type: 'AlertRuleUpdated', data: { ...command.rule, envId: state.rule!.envId } }];
      case 'PatchAlertRule':
        if (state.status !== 'active') throw rejectNotFound('alert rule');
        return [{ type: 'AlertRuleUpdated', data: patchedRule(state.rule!, command.changes) }];
      case 'DeleteAlertRule':
        if (state.status !== 'active') throw rejectNotFound('alert rule');
        return [{ type: 'AlertRuleDeleted', data: { ruleId: command.ruleId } }];
    }
  },
};
