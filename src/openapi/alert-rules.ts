/** Alert rules and their evaluation history (commands/alert-rule-routes.ts, queries/alert-rules.ts). */
import { z } from 'zod';
import { alertRuleBodySchema, alertRulePatchSchema } from '../contract/bodies/alert-rules.js';
import { alertMetricReadingQuery } from '../../queries/alert-metrics.js';
import { alertRuleHistoryQuery, alertRuleListQuery } from '../../queries/alert-rules.js';
import { alertRuleBacktestBody, MAX_BACKTEST_DAYS } from '../contract/bodies/alert-rules.js';
import {
  alertMetricSchema,
  alertRuleDeletedSchema,
  alertRuleSchema,
  backtestSchema,
  evaluationSchema,
  metricReadingSchema,
} from '../contract/alert-rules.js';
import { HEAVY_REQUESTS_429, type OperationDoc } from './operation.js';

const tag = 'Alert rules';

const ruleResponse = (description: string, status: 200 | 201 = 200) =>
  ({
    kind: 'envelope',
    status,
    description,
    data: alertRuleSchema,
    etag: true,
    ...(status === 201 ? { location: true } : {}),
  }) as const;

export const alertRuleOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/alert-rules',
    tag,
    summary: 'List alert rules',
    description: 'Newest first.',
    query: alertRuleListQuery.shape,
    response: { kind: 'envelope', status: 200, description: 'A page of rules', data: alertRuleSchema, list: true },
  },
  {
    method: 'post',
    path: '/alert-rules',
    tag,
    summary: 'Create an alert rule',
    body: alertRuleBodySchema,
    response: ruleResponse('The rule', 201),
  },
  { method: 'get', path: '/alert-rules/:id', tag, summary: 'Get an alert rule', response: ruleResponse('The rule') },
  {
    method: 'put',
    path: '/alert-rules/:id',
    tag,
    summary: 'Replace an alert rule',
    body: alertRuleBodySchema,
    ifMatch: true,
    description: 'Disabling a rule resolves its active incident (reason `rule_disabled`).',
    response: ruleResponse('The rule'),
  },
  {
    method: 'patch',
    path: '/alert-rules/:id',
    tag,
    summary: 'Change some fields of an alert rule',
    body: alertRulePatchSchema,
    ifMatch: true,
    description: 'The merged rule is validated whole.',
    response: ruleResponse('The rule'),
  },
  {
    method: 'delete',
    path: '/alert-rules/:id',
    tag,
    summary: 'Delete an alert rule',
    ifMatch: true,
    description: 'Resolves its active incident (reason `rule_deleted`).',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'Deleted',
      data: alertRuleDeletedSchema,
    },
  },
  {
    method: 'get',
    path: '/alert-rules/:id/history',
    tag,
    summary: "A rule's recorded evaluations, newest first",
    description:
      "Read from the rule's evaluation stream; readable after the rule is deleted. Page size up to 500. " +
      'Recorded: the first evaluation, every change of outcome, condition, incident, error or pending clock, and one an hour while nothing changes.',
    query: alertRuleHistoryQuery.shape,
    response: {
      kind: 'envelope',
      status: 200,
      description: 'A page of evaluations',
      data: evaluationSchema,
      list: true,
    },
  },
  {
    method: 'get',
    path: '/alert-metrics',
    tag,
    summary: 'The metrics an alert rule can watch',
    description: 'Every metric the registry knows (the seven SPEC metrics and any registered since), with its unit.',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The metrics',
      data: z.array(alertMetricSchema),
    },
  },
  {
    method: 'get',
    path: '/alert-metrics/reading',
    tag,
    summary: "A metric's value now, as a rule would read it",
    description:
      'Read from the warehouse over the window (and cluster) given, as the evaluator reads it for a rule; ' +
      'nothing is recorded. Lets a client show the value against a threshold before a rule is saved.',
    query: alertMetricReadingQuery.shape,
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The reading',
      data: metricReadingSchema,
    },
    problems: { 503: 'The warehouse did not answer' },
  },
  {
    method: 'post',
    path: '/alert-rules/backtest',
    tag,
    summary: 'Would this rule have fired? Replay a rule over past metric history',
    description:
      `A saved rule (\`rule_id\`) or an unsaved rule body (validated as on create, field errors under \`/rule\`), over \`since\`..\`until\` ` +
      `(at most ${MAX_BACKTEST_DAYS} days), evaluated every \`step_seconds\` with the evaluator's own decision function. Missing history is reported ` +
      "as `gaps` and decides nothing (as a failed read does live); instants after now are missing. Pages are counted from the policy's stages and " +
      "delays; nobody acknowledges in a backtest. The tenant's maintenance windows (ended and deleted ones up to when they stopped) silence " +
      'the instants they were active at, as live (`silenced`, `silenced_by`). Nothing is recorded or sent.',
    body: alertRuleBacktestBody,
    response: { kind: 'envelope', status: 200, description: 'The would-be incidents and counts', data: backtestSchema },
    problems: { 404: 'No rule with this rule_id in the tenant', 429: HEAVY_REQUESTS_429 },
  },
];
