/**
 * What one evaluation of one rule means, as a pure function of the rule's condition, whether it
 * has an active incident, and the metric reading (SPEC.md, Alert incident state table).
 */
export type Condition = 'gt' | 'lt' | 'gte' | 'lte' | 'eq';

export type MetricReading = { ok: true; value: number } | { ok: false; error: string };

export type EvaluationDecision =
  | { outcome: 'triggered'; action: 'trigger'; value: number; conditionMet: true }
  | { outcome: 'resolved'; action: 'resolve'; value: number; conditionMet: false }
  | { outcome: 'unchanged'; action: 'none'; value: number; conditionMet: true }
  | { outcome: 'ok'; action: 'none'; value: number; conditionMet: false }
  | { outcome: 'error'; action: 'none'; error: string };

/** Metric values are floats: `eq` tolerates representation noise, not real differences. */
const EPSILON = 1e-9;

export function conditionMet(condition: Condition, value: number, threshold: number): boolean {
  switch (condition) {
    case 'gt':
      return value > threshold;
    case 'gte':
      return value >= threshold;
    case 'lt':
      return value < threshold;
    case 'lte':
      return value <= threshold;
    case 'eq':
      return Math.abs(value - threshold) <= EPSILON * Math.max(1, Math.abs(threshold));
  }
}

export function decideEvaluation(rule: { condition: Condition; threshold: number; hasActiveIncident: boolean }, reading: MetricReading): EvaluationDecision {
  // A metric that cannot be read says nothing about the condition: no incident changes.
  if (!reading.ok) return { outcome: 'error', action: 'none', error: reading.error };
  const met = conditionMet(rule.condition, reading.value, rule.threshold);
  if (met) {
    return rule.hasActiveIncident
      ? { outcome: 'unchanged', action: 'none', value: reading.value, conditionMet: true }
      : { outcome: 'triggered', action: 'trigger', value: reading.value, conditionMet: true };
  }
  return rule.hasActiveIncident
    ? { outcome: 'resolved', action: 'resolve', value: reading.value, conditionMet: false }
    : { outcome: 'ok', action: 'none', value: reading.value, conditionMet: false };
}
