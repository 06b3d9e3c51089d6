import test from 'ava';
import { alertRuleDecider } from '../commands/alert-rules.js';
import type { AlertRuleData, AlertRuleEvent } from '../src/events/alert-rule.js';
import { deciderSpec } from './support/decider-spec.js';

const rule: AlertRuleData = {
  ruleId: '11111111-1111-4111-8111-111111111111',
  name: 'Queue wait',
  description: null,
  metric: 'queue_time_seconds',
  condition: 'gt',
  threshold: 30,
  evaluationWindowMinutes: 5,
  severity: 'high',
  escalationPolicyId: '33333333-3333-4333-8333-333333333333',
  clusterId: null,
  isEnabled: true,
  envId: '22222222-2222-4222-8222-222222222222',
};
const created: AlertRuleEvent = { type: 'AlertRuleCreated', data: rule };

test('create records the whole rule', (t) => {
  deciderSpec(t, alertRuleDecider).given([]).when({ kind: 'CreateAlertRule', rule }).then([created]);
});

test('an update keeps the environment the rule was created in', (t) => {
  const edited = { ...rule, threshold: 60, envId: '99999999-9999-4999-8999-999999999999' };
  deciderSpec(t, alertRuleDecider)
    .given([created])
    .when({ kind: 'UpdateAlertRule', rule: edited })
    .then([{ type: 'AlertRuleUpdated', data: { ...edited, envId: rule.envId } }]);
});

test('update and delete of a deleted rule are not found', (t) => {
  const deleted: AlertRuleEvent = { type: 'AlertRuleDeleted', data: { ruleId: rule.ruleId } };
  deciderSpec(t, alertRuleDecider)
    .given([created, deleted])
    .when({ kind: 'UpdateAlertRule', rule })
    .thenRejects('not_found');
  deciderSpec(t, alertRuleDecider)
    .given([created, deleted])
    .when({ kind: 'DeleteAlertRule', ruleId: rule.ruleId })
    .thenRejects('not_found');
});

test('delete a live rule', (t) => {
  deciderSpec(t, alertRuleDecider)
    .given([created])
    .when({ kind: 'DeleteAlertRule', ruleId: rule.ruleId })
    .then([{ type: 'AlertRuleDeleted', data: { ruleId: rule.ruleId } }]);
});

test('create twice is a conflict', (t) => {
  deciderSpec(t, alertRuleDecider).given([created]).when({ kind: 'CreateAlertRule', rule }).thenRejects('conflict');
});

test('a patch is merged onto the rule as its stream has it, keeping id and environment', (t) => {
  const updated: AlertRuleEvent = { type: 'AlertRuleUpdated', data: { ...rule, threshold: 45 } };
  deciderSpec(t, alertRuleDecider)
    .given([created, updated])
    .when({ kind: 'PatchAlertRule', ruleId: rule.ruleId, changes: { isEnabled: false, severity: 'critical' } })
    .then([{ type: 'AlertRuleUpdated', data: { ...rule, threshold: 45, isEnabled: false, severity: 'critical' } }]);
});

test('a patch of a rule that does not exist is not found', (t) => {
  deciderSpec(t, alertRuleDecider)
    .given([])
    .when({ kind: 'PatchAlertRule', ruleId: rule.ruleId, changes: { isEnabled: false } })
    .thenRejects('not_found');
});
