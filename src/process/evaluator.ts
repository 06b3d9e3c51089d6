/**
 * The alert evaluator: one tick reads every enabled rule, reads each distinct (environment,
 * cluster, metric, window) once through the metric registry, decides per rule, and turns the
 * decisions into incident commands, and into a RuleEvaluated event for each evaluation the
 * history's recording rule keeps (src/process/evaluation-record.ts).
 *
 * Exactly one active incident per rule holds across instances because the rule's n-th incident
 * has a fixed id: two evaluators that both decide to trigger append to the same new stream, and
 * only one append with "no stream" expected can succeed.
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Counter, Histogram, type Registry } from 'prom-client';
import { incidentDecider, type IncidentCommand } from '../../commands/incidents.js';
import { incidentIdFor, incidentStream, type IncidentState } from '../events/incident.js';
import { ALERT_RULES, watchOf, type AlertRuleDoc } from '../../projections/alert-rules.js';
import { handleCommand, type CommandDeps } from '../commanding/command-handler.js';
import type { EventStore } from '../eventstore/port.js';
import { RULE_SHARE_BUCKETS, ruleBucketKey } from '../events/rule-shares.js';
import { ruleEvaluationStream, type RuleEvaluatedData } from '../events/rule-evaluation.js';
import type { MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import type { Filter, ReadModelReader } from '../readstore/port.js';
import { indexWindows } from '../events/maintenance-window-timing.js';
import {
  decideEvaluation,
  metricWindowMinutes,
  type ActiveWindow,
  type EvaluationDecision,
} from './evaluation-decision.js';
import { shouldRecordEvaluation } from './evaluation-record.js';
import { evaluationErrorReason, EVALUATION_ERROR_REASONS } from './evaluation-error-reason.js';

export const EVALUATOR_ACTOR = 'system:evaluator';
const ACTION_CONCURRENCY = 16;
/**
 * Rules decided between two turns of the event loop. Deciding is synchronous work (the actions
 * are rare); without a turn now and then a tick over 100,000 rules would hold the event loop, and
 * every HTTP request waiting on it, for its whole length.
 */
const RULES_PER_TURN = 200;
const RULES_PER_PAGE = 500;

export interface EvaluatorDeps extends CommandDeps {
  eventStore: EventStore;
  reader: ReadModelReader;
  metrics: MetricRegistry;
  logger: Logger;
  instruments: EvaluatorInstruments;
  /**
   * Whether this instance evaluates the rules of a share bucket (ruleBucketKey, see
   * src/events/rule-shares.ts) this tick. Default: every rule (one instance). In a cluster each
   * member owns some buckets (src/cluster/membership.ts).
   */
  owns?: (bucketKey: string) => boolean;
  /** Told at the start of every tick, once its rules are read, how many rules this instance owns. */
  onOwnedRules?: (count: number) => void;
  /**
   * The maintenance windows active at an instant, every tenant's, by tenant id: read once per tick
   * (one indexed read-model query, src/composition/maintenance-windows.ts), never per rule.
   * Default: none.
   */
  activeWindows?: (at: Date) => Promise<ReadonlyMap<string, readonly ActiveWindow[]>>;
}

const NO_WINDOWS: ReadonlyMap<string, readonly ActiveWindow[]> = new Map();
/** Each tenant's active windows indexed once per tick (src/events/maintenance-window-timing.ts). */
const indexByTenant = (windows: ReadonlyMap<string, readonly ActiveWindow[]>) =>
  new Map([...windows].map(([tenantId, list]) => [tenantId, indexWindows(list)]));

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
  instruments.resolved.inc({ severity: outcome.state.severity, reason: outcome.state.resolution_reason });
}

export type EvaluatorInstruments = ReturnType<typeof createEvaluatorInstruments>;

export interface TickReport {
  rules: number;
  metricReads: number;
  triggered: number;
  resolved: number;
  errors: number;
  /** Evaluations recorded as RuleEvaluated events (the others changed nothing the history keeps). */
  recorded: number;
  durationMs: number;
}

interface ActResult {
  outcome: RuleEvaluatedData['outcome'];
  incidentId: string | null;
  /** Why the action itself failed (the reading was fine). */
  error?: string;
}

export function createEvaluator(deps: EvaluatorDeps) {
  const { tickDuration, rulesEvaluated, readErrors, triggered, evaluationErrors, ticks, warehouseReads, silenced } =
    deps.instruments;
  /**
   * The share buckets this instance owns now (asked once per tick), as a read-model filter: null
   * when it owns every rule (one instance, no filter).
   */
  const ownedBuckets = (): number[] | null => {
    if (!deps.owns) return null;
    return Array.from({ length: RULE_SHARE_BUCKETS }, (_, bucket) => bucket).filter((bucket) =>
      deps.owns!(ruleBucketKey(bucket)),
    );
  };
  const inBuckets = (buckets: number[] | null): Filter => (buckets === null ? {} : { shareBucket: { $in: buckets } });

  const command = (rule: AlertRuleDoc, incidentId: string, cmd: IncidentCommand, tickId: string) =>
    handleCommand(deps, incidentDecider, {
      stream: incidentStream(incidentId),
      resourceName: 'incident',
      command: cmd,
      envelope: { tenantId: rule.tenantId, actor: EVALUATOR_ACTOR, correlationId: tickId, causationId: tickId },
    });

  async function act(rule: AlertRuleDoc, decision: EvaluationDecision, tickId: string): Promise<ActResult> {
    if (decision.action === 'trigger') {
      const ordinal = rule.incidentCount + 1;
      const incidentId = incidentIdFor(rule.id, ordinal);
      const outcome = await command(
        rule,
        incidentId,
        {
          kind: 'TriggerIncident',
          incident: {
            incidentId,
            source: 'rule',
            subject: rule.id,
            title: rule.name,
            ruleId: rule.id,
            ruleName: rule.name,
            ordinal,
            currentValue: decision.value,
            severity: rule.severity,
            metric: rule.metric,
            condition: rule.condition,
            threshold: rule.threshold,
            envId: rule.envId,
            clusterId: rule.clusterId,
            escalationPolicyId: rule.escalationPolicyId,
          },
        },
        tickId,
      );
      // No events: another evaluator created this incident first.
      if (outcome.events.length === 0) return { outcome: 'unchanged', incidentId };
      triggered.inc({ severity: rule.severity });
      return { outcome: 'triggered', incidentId };
    }
    if (decision.action === 'resolve' && rule.activeIncidentId) {
      const outcome = await command(
        rule,
        rule.activeIncidentId,
        { kind: 'ResolveIncident', incidentId: rule.activeIncidentId, reason: 'auto', value: decision.value },
        tickId,
      );
      countResolution(deps.instruments, outcome);
      return { outcome: outcome.events.length > 0 ? 'resolved' : 'unchanged', incidentId: rule.activeIncidentId };
    }
    return { outcome: decision.outcome, incidentId: rule.activeIncidentId };
  }

  /**
   * Incidents left active by a deleted or disabled rule: a crash between the rule's change and the
   * resolve, or a trigger decided on the rule as it was when this tick started.
   */
  async function resolveOrphans(tickId: string, buckets: number[] | null) {
    // A deleted rule is also disabled (see the projection), so one query finds both.
    const orphans = await deps.reader.find<AlertRuleDoc>(ALERT_RULES, {
      isEnabled: false,
      activeIncidentId: { $ne: null },
      ...inBuckets(buckets),
    });
    for (const rule of orphans) {
      const reason = rule.deleted ? 'rule_deleted' : 'rule_disabled';
      const outcome = await command(
        rule,
        rule.activeIncidentId!,
        { kind: 'ResolveIncident', incidentId: rule.activeIncidentId!, reason },
        tickId,
      );
      countResolution(deps.instruments, outcome);
    }
  }

  /**
   * The enabled rules this instance owns, read in pages by id (the `enabled` index serves filter
   * and order): one read of 100,000 rule documents held the event loop for 1–2 s on a 2-core
   * machine; a page of RULES_PER_PAGE holds it for some 5–10 ms, and other work runs in between.
   */
  async function enabledRules(buckets: number[] | null): Promise<AlertRuleDoc[]> {
    const rules: AlertRuleDoc[] = [];
    let after: { values: never[]; id: string } | undefined;
    if (buckets?.length === 0) return rules;
    for (;;) {
      const page = await deps.reader.find<AlertRuleDoc>(
        ALERT_RULES,
        { isEnabled: true, deleted: false, ...inBuckets(buckets) },
        { sort: [['id', 'asc']], limit: RULES_PER_PAGE, after },
      );
      rules.push(...page);
      if (page.length < RULES_PER_PAGE) return rules;
      after = { values: [], id: page.at(-1)!.id };
      await yieldToEventLoop();
    }
  }

  async function tick(): Promise<TickReport> {
    const started = performance.now();
    const tickId = randomUUID();
    const now = deps.now();
    const buckets = ownedBuckets();
    const rules = await enabledRules(buckets);
    const windows = indexByTenant(rules.length > 0 && deps.activeWindows ? await deps.activeWindows(now) : NO_WINDOWS);
    // Reported when the tick takes them on, not when it ends: a takeover shows at the first tick after it.
    deps.onOwnedRules?.(rules.length);
    const readsBefore = deps.metrics.providerReads;
    const readings = await deps.metrics.readMany(
      rules.map((rule) => ({
        envId: rule.envId,
        clusterId: rule.clusterId ?? undefined,
        metric: rule.metric,
        windowMinutes: metricWindowMinutes(rule.evaluationWindowMinutes),
      })),
    );
    const report: TickReport = {
      rules: rules.length,
      metricReads: deps.metrics.providerReads - readsBefore,
      triggered: 0,
      resolved: 0,
      errors: 0,
      recorded: 0,
      durationMs: 0,
    };
    ticks.inc();
    warehouseReads.inc(report.metricReads);
    const evaluations: Promise<bigint>[] = [];
    let next = 0;
    let turnEnd = 0;
    const worker = async (end: number) => {
      while (next < end) {
        const index = next++;
        const rule = rules[index]!;
        const reading = readings[index]!;
        const { pendingSince, rearmed } = watchOf(rule);
        const tenantWindows = windows.get(rule.tenantId);
        const decision = decideEvaluation(
          {
            condition: rule.condition,
            threshold: rule.threshold,
            windowMinutes: rule.evaluationWindowMinutes,
            hasActiveIncident: rule.activeIncidentId !== null,
            pendingSince,
            rearmed,
          },
          reading.ok ? { ok: true, value: reading.value } : { ok: false, error: reading.error.message },
          now,
          tenantWindows === undefined
            ? undefined
            : { rule: { ruleId: rule.id, clusterId: rule.clusterId, severity: rule.severity }, windows: tenantWindows },
        );
        if (decision.outcome === 'silenced') silenced.inc();
        let result: ActResult;
        try {
          result = await act(rule, decision, tickId);
        } catch (error) {
          deps.logger.error({ err: error, ruleId: rule.id }, 'evaluation action failed');
          result = {
            outcome: 'error',
            incidentId: rule.activeIncidentId,
            error: `could not change the incident: ${(error as Error).message}`,
          };
          evaluationErrors.inc({ reason: 'other' });
        }
        if (result.outcome === 'triggered') report.triggered++;
        if (result.outcome === 'resolved') report.resolved++;
        if (decision.outcome === 'error') {
          report.errors++;
          readErrors.inc();
          evaluationErrors.inc({ reason: reading.ok ? 'other' : evaluationErrorReason(reading.error) });
        }
        const evaluation = evaluationOf(rule, now, decision, result);
        if (
          !shouldRecordEvaluation({
            ruleId: rule.id,
            last: rule.lastRecorded ?? null,
            watch: watchOf(rule),
            evaluation,
          })
        )
          continue;
        report.recorded++;
        // Handled where it starts: a failed write must not become an unhandled rejection while
        // other workers are still busy; it is logged and counted, and the next tick evaluates again.
        evaluations.push(
          recordEvaluation(rule, evaluation, tickId).then(
            ({ position }) => position,
            (error) => {
              report.errors++;
              deps.logger.error({ err: error, ruleId: rule.id }, 'could not record an evaluation');
              return -1n;
            },
          ),
        );
      }
    };
    while (turnEnd < rules.length) {
      turnEnd = Math.min(rules.length, turnEnd + RULES_PER_TURN);
      await Promise.all(Array.from({ length: Math.min(ACTION_CONCURRENCY, turnEnd - next) }, () => worker(turnEnd)));
      if (turnEnd < rules.length) await yieldToEventLoop();
    }
    const positions = await Promise.all(evaluations);
    // The next tick decides on the pending clock these evaluations move: let the read model catch up.
    const last = positions.reduce((max, position) => (position > max ? position : max), -1n);
    if (last >= 0n && !(await deps.waitForProjections(last)))
      deps.logger.warn({ position: String(last) }, 'evaluations not yet projected when the tick ended');
    await resolveOrphans(tickId, buckets);
    rulesEvaluated.inc(rules.length);
    report.durationMs = performance.now() - started;
    tickDuration.observe(report.durationMs / 1000);
    return report;
  }

  function evaluationOf(
    rule: AlertRuleDoc,
    now: Date,
    decision: EvaluationDecision,
    result: ActResult,
  ): RuleEvaluatedData {
    return {
      ruleId: rule.id,
      at: now.toISOString(),
      value: 'value' in decision ? decision.value : null,
      conditionMet: 'conditionMet' in decision ? decision.conditionMet : null,
      outcome: result.outcome,
      incidentId: result.incidentId,
      error: decision.outcome === 'error' ? decision.error : (result.error ?? null),
      windowId: decision.outcome === 'silenced' ? decision.windowId : null,
    };
  }

  function recordEvaluation(rule: AlertRuleDoc, data: RuleEvaluatedData, tickId: string) {
    return deps.eventStore.append(ruleEvaluationStream(rule.id), [
      {
        type: 'RuleEvaluated',
        data,
        metadata: {
          tenantId: rule.tenantId,
          actor: EVALUATOR_ACTOR,
          correlationId: tickId,
          causationId: tickId,
          occurredAt: data.at,
        },
      },
    ]);
  }

  return { tick };
}

export type Evaluator = ReturnType<typeof createEvaluator>;
