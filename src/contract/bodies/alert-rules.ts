/**
 * What clients send to the alert-rule routes: the rule (POST, PUT; SPEC.md Alert rule), a patch of
 * it, and a backtest of a saved or an unsaved rule (commands/alert-rule-routes.ts,
 * commands/alert-rule-backtest-routes.ts parse with these; the console's calls are typed from them).
 */
import { z } from 'zod';
import { apiInstant } from '../api-instant.js';
import {
  CONDITIONS,
  HISTORY_SOURCES,
  READ_FAILURE_STATES,
  RULE_READ_FAILURE_DEFAULT,
  SEVERITIES,
} from '../vocabulary.js';

const readFailureState = z.enum(READ_FAILURE_STATES);

export const alertRuleBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  metric: z.string().min(1),
  condition: z.enum(CONDITIONS),
  threshold: z.number().refine(Number.isFinite, 'must be a finite number'),
  /** How long the condition must hold before an incident is triggered (0: at the first breach); also the metric's look-back. */
  evaluation_window_minutes: z.number().int().min(0).max(1440),
  severity: z.enum(SEVERITIES),
  escalation_policy_id: z.uuid(),
  cluster_id: z.string().trim().min(1).max(200).nullable().optional(),
  is_enabled: z.boolean().default(true),
  /** While the metric cannot be read: page (`alerting`, after `error_for_minutes`) or not (`ok`, `keep_last`). */
  on_error: readFailureState.default(RULE_READ_FAILURE_DEFAULT.onError),
  /** While the warehouse answers with no value: the same choice. */
  on_no_data: readFailureState.default(RULE_READ_FAILURE_DEFAULT.onNoData),
  /** How long reads must fail (or have no value) without a break before `alerting` pages; 0: at the first. */
  error_for_minutes: z.number().int().min(0).max(1440).default(RULE_READ_FAILURE_DEFAULT.errorForMinutes),
});

export type AlertRuleBody = z.infer<typeof alertRuleBodySchema>;

/** PATCH: any subset of the fields, each valid on its own; the rule after the merge is whole by construction. */
export const alertRulePatchSchema = alertRuleBodySchema.partial().extend({
  is_enabled: z.boolean().optional(),
  // A patch sets only what it names: a rule stored before these fields keeps behaving as it did.
  on_error: readFailureState.optional(),
  on_no_data: readFailureState.optional(),
  error_for_minutes: z.number().int().min(0).max(1440).optional(),
});
export type AlertRulePatch = z.infer<typeof alertRulePatchSchema>;

/** The longest range one backtest covers: 31 days of one-minute evaluations is 44,641 instants. */
export const MAX_BACKTEST_DAYS = 31;

export const alertRuleBacktestBody = z.strictObject({
  rule_id: z.uuid().optional().meta({ description: 'a saved rule of the tenant; give this or `rule`' }),
  rule: alertRuleBodySchema
    .optional()
    .meta({ description: 'an unsaved rule, validated as POST /alert-rules validates it' }),
  since: apiInstant,
  until: apiInstant.meta({ description: `after since, at most ${MAX_BACKTEST_DAYS} days after it` }),
  step_seconds: z
    .number()
    .int()
    .min(60)
    .max(3600)
    .optional()
    .meta({ description: "time between evaluations; default the evaluator's interval (at least one minute)" }),
  include_readings: z
    .boolean()
    .default(false)
    .meta({ description: 'also answer `readings`: every instant and its value (null inside a gap), for a chart' }),
  source: z
    .enum(HISTORY_SOURCES)
    .optional()
    .meta({ description: "where history is read; default as the deployment decides (see the answer's `source`)" }),
});
