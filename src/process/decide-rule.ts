/**
 * One rule document's decision (src/process/evaluation-decision.ts, pure) from its watch, its
 * reading and its tenant's active maintenance windows, indexed once per tick.
 */
import type { AlertRuleDoc } from '../../projections/alert-rules.js';
import type { indexWindows } from '../events/maintenance-window-timing.js';
import type { RuleWatch } from '../events/rule-evaluation.js';
import { isMetricNoData } from '../gateways/warehouse/errors.js';
import type { MetricReadResult } from '../gateways/warehouse/metrics/provider.js';
import { decideEvaluation, type ActiveWindow, type EvaluationDecision } from './evaluation-decision.js';

export type TenantWindows = ReturnType<typeof indexWindows<ActiveWindow>>;

export function decideRule(
  rule: AlertRuleDoc,
  watch: RuleWatch,
  reading: MetricReadResult,
  now: Date,
  tenantWindows: TenantWindows | undefined,
): EvaluationDecision {
  return decideEvaluation(
    {
      condition: rule.condition,
      threshold: rule.threshold,
      windowMinutes: rule.evaluationWindowMinutes,
      hasActiveIncident: rule.activeIncidentId !== null,
      pendingSince: watch.pendingSince,
      rearmed: watch.rearmed,
    },
    reading.ok
      ? { ok: true, value: reading.value }
      : { ok: false, error: reading.error.message, noData: isMetricNoData(reading.error) },
    now,
    tenantWindows === undefined
      ? undefined
      : { rule: { ruleId: rule.id, clusterId: rule.clusterId, severity: rule.severity }, windows: tenantWindows },
  );
}
