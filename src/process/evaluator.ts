/**
 * The alert evaluator: one tick reads every enabled rule, reads each distinct (environment,
 * cluster, metric, window) once through the metric registry, decides per rule, and turns the
 * decisions into incident commands and one RuleEvaluated event per rule.
 *
 * Exactly one active incident per rule holds across instances because the rule's n-th incident
 * has a fixed id: two evaluators that both decide to trigger append to the same new stream, and
 * only one append with "no stream" expected can succeed.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, Histogram, type Registry } from 'prom-client';
import { incidentDecider, type IncidentCommand } from '../../commands/incidents.js';
import { incidentIdFor, incidentStream } from '../events/incident.js';
import { ALERT_RULES, type AlertRuleDoc } from '../../projections/alert-rules.js';
import { handleCommand, type CommandDeps } from '../commanding/command-handler.js';
import type { EventStore } from '../eventstore/port.js';
import { ruleEvaluationStream, type RuleEvaluatedData } from '../events/rule-evaluation.js';
import type { MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import type { ReadModelReader } from '../readstore/port.js';
import { decideEvaluation, type EvaluationDecision } from './evaluation-decision.js';

export const EVALUATOR_ACTOR = 'system:evaluator';
const ACTION_CONCURRENCY = 16;

export interface EvaluatorDeps extends CommandDeps {
  eventStore: EventStore;
  reader: ReadModelReader;
  metrics: MetricRegistry;
  logger: Logger;
  instruments: EvaluatorInstruments;
}

/** Prometheus instruments of the evaluator; created once per registry, shared by evaluators. */
export function createEvaluatorInstruments(registry: Registry) {
  return {
    tickDuration: new Histogram({ name: 'evaluator_tick_duration_seconds', help: 'Duration of one evaluation tick', buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30], registers: [registry] }),
    rulesEvaluated: new Counter({ name: 'evaluator_rules_evaluated_total', help: 'Rule evaluations', registers: [registry] }),
    readErrors: new Counter({ name: 'evaluator_metric_read_errors_total', help: 'Rule evaluations whose metric could not be read', registers: [registry] }),
    triggered: new Counter({ name: 'incidents_triggered_total', help: 'Incidents triggered', labelNames: ['severity'] as const, registers: [registry] }),
    resolved: new Counter({ name: 'incidents_resolved_total', help: 'Incidents resolved', labelNames: ['severity', 'reason'] as const, registers: [registry] }),
  };
}

export type EvaluatorInstruments = ReturnType<typeof createEvaluatorInstruments>;

export interface TickReport {
  rules: number;
  metricReads: number;
  triggered: number;
  resolved: number;
  errors: number;
  durationMs: number;
}

export function createEvaluator(deps: EvaluatorDeps) {
  const { tickDuration, rulesEvaluated, readErrors, triggered, resolved } = deps.instruments;

  const command = (rule: AlertRuleDoc, incidentId: string, cmd: IncidentCommand, tickId: string) =>
    handleCommand(deps, incidentDecider, {
      stream: incidentStream(incidentId),
      resourceName: 'incident',
      command: cmd,
      envelope: { tenantId: rule.tenantId, actor: EVALUATOR_ACTOR, correlationId: tickId, causationId: tickId },
      retriesOnConflict: 3,
    });

  async function act(rule: AlertRuleDoc, decision: EvaluationDecision, tickId: string): Promise<{ outcome: RuleEvaluatedData['outcome']; incidentId: string | null }> {
    if (decision.action === 'trigger') {
      const ordinal = rule.incidentCount + 1;
      const incidentId = incidentIdFor(rule.id, ordinal);
      const outcome = await command(rule, incidentId, {
        kind: 'TriggerIncident',
        incident: {
          incidentId, ruleId: rule.id, ruleName: rule.name, ordinal, currentValue: decision.value, severity: rule.severity,
          metric: rule.metric, condition: rule.condition, threshold: rule.threshold, envId: rule.envId, clusterId: rule.clusterId,
          escalationPolicyId: rule.escalationPolicyId,
        },
      }, tickId);
      // No events: another evaluator created this incident first.
      if (outcome.events.length === 0) return { outcome: 'unchanged', incidentId };
      triggered.inc({ severity: rule.severity });
      return { outcome: 'triggered', incidentId };
    }
    if (decision.action === 'resolve' && rule.activeIncidentId) {
      const outcome = await command(rule, rule.activeIncidentId, { kind: 'ResolveIncident', incidentId: rule.activeIncidentId, reason: 'auto', value: decision.value }, tickId);
      if (outcome.events.length > 0) resolved.inc({ severity: rule.severity, reason: 'auto' });
      return { outcome: outcome.events.length > 0 ? 'resolved' : 'unchanged', incidentId: rule.activeIncidentId };
    }
    return { outcome: decision.outcome, incidentId: rule.activeIncidentId };
  }

  /** Incidents left active by a deleted rule (e.g. a crash between the delete and the resolve). */
  async function resolveOrphans(tickId: string) {
    const orphans = await deps.reader.find<AlertRuleDoc>(ALERT_RULES, { deleted: true, activeIncidentId: { $ne: null } });
    for (const rule of orphans) {
      const outcome = await command(rule, rule.activeIncidentId!, { kind: 'ResolveIncident', incidentId: rule.activeIncidentId!, reason: 'rule_deleted' }, tickId);
      if (outcome.events.length > 0) resolved.inc({ severity: rule.severity, reason: 'rule_deleted' });
    }
  }

  async function tick(): Promise<TickReport> {
    const started = performance.now();
    const tickId = randomUUID();
    const now = deps.now();
    const rules = await deps.reader.find<AlertRuleDoc>(ALERT_RULES, { isEnabled: true, deleted: false });
    const readsBefore = deps.metrics.providerReads;
    const readings = await deps.metrics.readMany(
      rules.map((rule) => ({ envId: rule.envId, clusterId: rule.clusterId ?? undefined, metric: rule.metric, windowMinutes: rule.evaluationWindowMinutes })),
    );
    const report: TickReport = { rules: rules.length, metricReads: deps.metrics.providerReads - readsBefore, triggered: 0, resolved: 0, errors: 0, durationMs: 0 };
    const evaluations: Promise<unknown>[] = [];
    let next = 0;
    const worker = async () => {
      while (next < rules.length) {
        const index = next++;
        const rule = rules[index]!;
        const reading = readings[index]!;
        const decision = decideEvaluation(
          { condition: rule.condition, threshold: rule.threshold, hasActiveIncident: rule.activeIncidentId !== null },
          reading.ok ? { ok: true, value: reading.value } : { ok: false, error: reading.error.message },
        );
        let result: { outcome: RuleEvaluatedData['outcome']; incidentId: string | null };
        try {
          result = await act(rule, decision, tickId);
        } catch (error) {
          deps.logger.error({ err: error, ruleId: rule.id }, 'evaluation action failed');
          result = { outcome: 'error', incidentId: rule.activeIncidentId };
        }
        if (result.outcome === 'triggered') report.triggered++;
        if (result.outcome === 'resolved') report.resolved++;
        if (decision.outcome === 'error') {
          report.errors++;
          readErrors.inc();
        }
        // Handled where it starts: a failed write must not become an unhandled rejection while
        // other workers are still busy; it is logged and counted, and the next tick evaluates again.
        evaluations.push(
          recordEvaluation(rule, now, decision, result, tickId).catch((error) => {
            report.errors++;
            deps.logger.error({ err: error, ruleId: rule.id }, 'could not record an evaluation');
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(ACTION_CONCURRENCY, rules.length) }, worker));
    await Promise.all(evaluations);
    await resolveOrphans(tickId);
    rulesEvaluated.inc(rules.length);
    report.durationMs = performance.now() - started;
    tickDuration.observe(report.durationMs / 1000);
    return report;
  }

  function recordEvaluation(rule: AlertRuleDoc, now: Date, decision: EvaluationDecision, result: { outcome: RuleEvaluatedData['outcome']; incidentId: string | null }, tickId: string) {
    const data: RuleEvaluatedData = {
      ruleId: rule.id,
      at: now.toISOString(),
      value: 'value' in decision ? decision.value : null,
      conditionMet: 'conditionMet' in decision ? decision.conditionMet : null,
      outcome: result.outcome,
      incidentId: result.incidentId,
      error: decision.outcome === 'error' ? decision.error : null,
    };
    return deps.eventStore.append(ruleEvaluationStream(rule.id), [
      { type: 'RuleEvaluated', data, metadata: { tenantId: rule.tenantId, actor: EVALUATOR_ACTOR, correlationId: tickId, causationId: tickId, occurredAt: now.toISOString() } },
    ]);
  }

  return { tick };
}

export type Evaluator = ReturnType<typeof createEvaluator>;
