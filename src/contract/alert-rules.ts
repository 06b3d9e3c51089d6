/**
 * The alert-rule answers: the rule, its recorded evaluations, the metrics a rule can watch and their
 * readings, and a backtest. Written once here: queries/alert-rules.ts, queries/alert-metrics.ts and
 * the command routes are typed from them, src/openapi/alert-rules.ts documents them, the console
 * imports their types.
 */
import { z } from 'zod';
import { instant, optionalText, resourceId } from './answer-pieces.js';
import {
  CONDITIONS,
  EVALUATION_OUTCOMES,
  HISTORY_SOURCES,
  READ_FAILURE_STATES,
  RULE_HEALTH,
  SEVERITIES,
} from './vocabulary.js';

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
  on_error: z.enum(READ_FAILURE_STATES).meta({
    description:
      "while the metric cannot be read: `alerting` opens the cluster's read-failure incident (source `rule_error`) after `error_for_minutes`; `ok` and `keep_last` page nobody (a rule stored before this setting reads `ok`)",
  }),
  on_no_data: z
    .enum(READ_FAILURE_STATES)
    .meta({ description: 'the same choice while the warehouse answers with no value (outcome `no_data`)' }),
  error_for_minutes: z
    .number()
    .int()
    .meta({ description: 'how long reads must fail without a break before `alerting` pages (0: at the first)' }),
  pending_since: instant
    .nullable()
    .meta({ description: 'the condition has held since then, not yet for the whole window' }),
  rearmed: z.boolean().meta({ description: 'false after a manual resolve until the condition has cleared once' }),
  health: z.enum(RULE_HEALTH),
  last_error: optionalText,
  failing_since: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** One recorded evaluation (GET /alert-rules/{id}/history). */
export const evaluationSchema = z.object({
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
export type Evaluation = z.infer<typeof evaluationSchema>;

/** POST /alert-rules/backtest: the would-be incidents and counts. */
export const backtestSchema = z.object({
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
  read_failure_incidents: z.array(z.object({ started_at: instant, ended_at: instant.nullable() })).meta({
    description:
      "when the rule's read-failure incident (source `rule_error`) would have opened and closed: an instant without history is a failed read; only for `on_error: alerting`, after `error_for_minutes`",
  }),
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
export type RuleBacktest = z.infer<typeof backtestSchema>;
export type BacktestIncident = RuleBacktest['incidents'][number];

/** DELETE /alert-rules/{id}: the rule's active incident is resolved with it. */
export const alertRuleDeletedSchema = z.object({
  id: resourceId,
  deleted: z.literal(true),
  resolved_incident_id: resourceId.nullable(),
});
export type AlertRuleDeleted = z.infer<typeof alertRuleDeletedSchema>;

/** GET /alert-metrics: what a rule can watch. */
export const alertMetricSchema = z.object({ id: z.string(), unit: z.string(), description: z.string() });
export type AlertMetric = z.infer<typeof alertMetricSchema>;

/** GET /alert-metrics/reading: the value now, as a rule with that window would read it. */
export const metricReadingSchema = z.object({
  metric: z.string(),
  value: z.number(),
  window_minutes: z.number().int(),
  cluster_id: z.string().nullable(),
  read_at: instant,
});
export type MetricReading = z.infer<typeof metricReadingSchema>;
