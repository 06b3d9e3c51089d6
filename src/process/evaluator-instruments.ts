/**
 * The evaluator's Prometheus instruments, and the one place a resolution is counted.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { IncidentState } from '../events/incident.js';
import { EVALUATION_ERROR_REASONS } from './evaluation-error-reason.js';

/** Prometheus instruments of the evaluator; created once per registry, shared by evaluators. */
export function createEvaluatorInstruments(registry: Registry) {
  return {
    tickDuration: new Histogram({
      name: 'evaluator_tick_duration_seconds',
      help: 'Duration of one evaluation tick',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
    rulesEvaluated: new Counter({
      name: 'evaluator_rules_evaluated_total',
      help: 'Rule evaluations',
      registers: [registry],
    }),
    ticks: new Counter({
      name: 'evaluator_ticks_total',
      help: 'Evaluation ticks run by this instance',
      registers: [registry],
    }),
    warehouseReads: new Counter({
      name: 'evaluator_warehouse_reads_total',
      help: 'Warehouse metric reads made by evaluation ticks (one per distinct environment, cluster, metric and window)',
      registers: [registry],
    }),
    readErrors: new Counter({
      name: 'evaluator_metric_read_errors_total',
      help: 'Rule evaluations whose metric could not be read',
      registers: [registry],
    }),
    triggered: new Counter({
      name: 'incidents_triggered_total',
      help: 'Incidents triggered',
      labelNames: ['severity'] as const,
      registers: [registry],
    }),
    // Every resolution path counts here, where its event is appended (see countResolution).
    resolved: new Counter({
      name: 'incidents_resolved_total',
      help: 'Incidents resolved',
      labelNames: ['severity', 'reason'] as const,
      registers: [registry],
    }),
    silenced: new Counter({
      name: 'alert_rule_evaluations_silenced_total',
      help: 'Rule evaluations silenced by a maintenance window',
      registers: [registry],
    }),
    evaluationErrors: new Counter({
      name: 'alert_rule_evaluation_errors_total',
      help: `Rule evaluations that failed, by reason (${EVALUATION_ERROR_REASONS.join(', ')})`,
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
  };
}

/**
 * Counts one resolution, with the severity the incident was raised with (not the rule's current
 * one). Called where the IncidentResolved event is appended, by the one instance that appended it:
 * counting in a projection would count again on every rebuild, and counting in the live feed would
 * count once per instance.
 */
export function countResolution(
  instruments: Pick<EvaluatorInstruments, 'resolved'>,
  outcome: { events: unknown[]; state: IncidentState },
) {
  if (outcome.events.length === 0 || !outcome.state.exists || outcome.state.resolution_reason === null) return;
  instruments.resolved.inc({
    severity: outcome.state.severity,
    reason: outcome.state.resolution_reason,
  });
}

export type EvaluatorInstruments = ReturnType<typeof createEvaluatorInstruments>;
