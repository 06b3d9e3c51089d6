/** Alert rules and their evaluation history (commands/alert-rule-routes.ts, queries/alert-rules.ts). */
import { z } from 'zod';
import { alertRuleBodySchema, alertRulePatchSchema } from '../../commands/alert-rules.js';
import { alertMetricReadingQuery } from '../../queries/alert-metrics.js';
import { alertRuleHistoryQuery, alertRuleListQuery } from '../../queries/alert-rules.js';
import { alertRuleBacktestBody, MAX_BACKTEST_DAYS } from '../../commands/alert-rule-backtest-routes.js';
import { HISTORY_SOURCES } from '../gateways/warehouse/metric-history-port.js';
import { EVALUATION_OUTCOMES } from '../events/rule-evaluation.js';
import { CONDITIONS, SEVERITIES } from '../events/vocabulary.js';
import { HEAVY_REQUESTS_429, type OperationDoc } from './operation.js';
import { instant, optionalText, resourceId } from './shared-schemas.js';

const tag = 'Alert rules';

export const alertRuleSchema = z.object({
  id: resourceId,
  tenant_id: resourceId,
  env_id: resourceId,
  name: z.string(),
  description: optionalText,
  metric: z.string(),
  condition: z.enum(CONDITIONS),
  threshold: z.number(),
  evaluation_window_minutes: z.number().int(),
  severity: z.enum(SEVERITIES),
  escalation_policy_id: resourceId,
  cluster_id: optionalText,
  is_enabled: z.boolean(),
  active_incident_id: resourceId.nullable(),
  pending_since: instant
    .nullable()
    .meta({ description: 'the condition has held since then, not yet for the whole window' }),
  rearmed: z.boolean().meta({ description: 'false after a manual resolve until the condition has cleared once' }),
  health: z.enum(['ok', 'failing']),
  last_error: optionalText,
  failing_since: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

const evaluationSchema = z.object({
  at: instant,
  value: z.number().nullable(),
  condition_met: z.boolean().nullable(),
  outcome: z.enum(EVALUATION_OUTCOMES),
  incident_id: resourceId.nullable(),
  error: optionalText,
  window_id: resourceId
    .nullable()
    .meta({ description: 'the maintenance window that silenced the evaluation (outcome `silenced`)' }),
});

const backtestSchema = z.object({
  rule: z.object({
    id: resourceId.nullable().meta({ description: 'null for an unsaved rule body' }),
    metric: z.string(),
    condition: z.enum(CONDITIONS),
    threshold: z.number(),
    evaluation_window_minutes: z.number().int(),
    cluster_id: z.string().nullable(),
    escalation_policy_id: resourceId,
  }),
  since: instant,
  until: instant,
  source: z.enum(HISTORY_SOURCES).meta({
    description:
      "which history answered: the relational store's mirrored `cluster_metrics`, or the simulated warehouse's deterministic history",
  }),
  step_seconds: z.number().int(),
  evaluations: z.number().int().meta({ description: 'evaluations that had a reading' }),
  breaches: z.number().int().meta({ description: 'evaluations whose reading met the condition' }),
  missing_evaluations: z.number().int().meta({ description: 'instants with no history (inside `gaps`)' }),
  silenced: z.number().int().meta({
    description:
      'evaluations a maintenance window of the tenant silenced (counted in `evaluations` too): no incident opens inside one',
  }),
  silenced_by: z
    .array(z.object({ window_id: resourceId, name: z.string(), evaluations: z.number().int() }))
    .meta({ description: 'the windows that silenced evaluations, with how many each' }),
  incidents: z.array(
    z.object({
      started_at: instant,
      ended_at: instant.nullable().meta({ description: 'null: still open at `until`' }),
      peak_value: z.number(),
      cluster_id: z.string().nullable(),
      stages_fired: z.number().int().nullable(),
      pages: z.number().int().nullable(),
    }),
  ),
  pages: z.number().int().nullable().meta({
    description:
      'targets notified by every stage the escalation policy would have fired (null: the policy no longer exists)',
  }),
  gaps: z.array(z.object({ from: instant, to: instant })),
  notes: z.array(z.string()).meta({ description: 'what the answer approximates or leaves out, in words' }),
  readings: z
    .array(z.object({ at: instant, value: z.number().nullable() }))
    .optional()
    .meta({ description: 'with `include_readings`: every instant evaluated and its reading (null inside a gap)' }),
});

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
      data: z.object({ id: resourceId, deleted: z.literal(true), resolved_incident_id: resourceId.nullable() }),
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
      data: z.array(z.object({ id: z.string(), unit: z.string(), description: z.string() })),
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
      data: z.object({
        metric: z.string(),
        value: z.number(),
        window_minutes: z.number().int(),
        cluster_id: z.string().nullable(),
        read_at: instant,
      }),
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
