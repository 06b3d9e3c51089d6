/**
 * The alert evaluator: one tick takes every enabled rule this instance owns from the rules it keeps
 * in memory (src/process/rule-mirror.ts, kept equal to the read model by its change feed), reads
 * each distinct (environment, cluster, metric, window) once (src/process/tick-readings.ts), decides
 * per rule (src/process/evaluation-decision.ts), carries the
 * decision out on the rule's incident (src/process/rule-incident-actions.ts), and records a
 * RuleEvaluated event for each evaluation the history's recording rule keeps
 * (src/process/evaluation-record.ts, src/process/evaluation-recording.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { watchOf, type AlertRuleDoc } from '../../projections/alert-rules.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { EventStore } from '../eventstore/port.js';
import { indexWindows } from '../events/maintenance-window-timing.js';
import type { MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import type { MetricReadResult } from '../gateways/warehouse/metrics/provider.js';
import type { DocChangeFeed } from '../readstore/doc-changes.js';
import type { ReadModelReader } from '../readstore/port.js';
import { readFailureSettingsOf } from '../events/alert-rule.js';
import type { RuleWatch } from '../events/rule-evaluation.js';
import { decideInSlices } from './decision-slices.js';
import type { TickContext, TickReport, WindowsByTenant } from './tick-report.js';
import { decideRule } from './decide-rule.js';
import type { ActiveWindow, EvaluationDecision } from './evaluation-decision.js';
import { evaluationErrorReason } from './evaluation-error-reason.js';
import { shouldRecordEvaluation } from './evaluation-record.js';
import { evaluationOf, recordEvaluation } from './evaluation-recording.js';
import type { EvaluatorInstruments } from './evaluator-instruments.js';
import { ownedBuckets } from './owned-rules.js';
import { readFailureVerdict } from './read-failure-decision.js';
import { createReadFailureIncidents } from './read-failure-incidents.js';
import {
  changesIncident,
  createRuleIncidentActions,
  unchangedIncident,
  type ActResult,
} from './rule-incident-actions.js';
import { createRuleMirror } from './rule-mirror.js';
import {
  decidesAsBefore,
  NO_WINDOWS_TOKEN,
  quietDecision,
  windowsTokens,
  type QuietDecision,
} from './quiet-decisions.js';
import { createSubjectIncidents } from './subject-incidents.js';
import { readEachOnce } from './tick-readings.js';

export {
  countResolution,
  createEvaluatorInstruments,
  type EvaluatorInstruments,
} from './evaluator-instruments.js';
export { EVALUATOR_ACTOR } from './rule-incident-actions.js';
export type { TickReport } from './tick-report.js';

export interface EvaluatorDeps extends CommandDeps {
  eventStore: EventStore;
  reader: ReadModelReader;
  /**
   * The alertRules read model's change feed (src/readstore/doc-changes.ts, published by the
   * projection runner after each commit): which rule documents to read again before a tick.
   */
  ruleChanges: Pick<DocChangeFeed, 'subscribe'>;
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

/** Milliseconds since the last call (the first: since `from`), rounded. */
function lapTimer(from: number) {
  let last = from;
  return () => {
    const at = performance.now();
    const ms = Math.round(at - last);
    last = at;
    return ms;
  };
}

const NO_WINDOWS: ReadonlyMap<string, readonly ActiveWindow[]> = new Map();
/** Each tenant's active windows indexed once per tick (src/events/maintenance-window-timing.ts). */
const indexByTenant = (windows: ReadonlyMap<string, readonly ActiveWindow[]>): WindowsByTenant =>
  new Map([...windows].map(([tenantId, list]) => [tenantId, indexWindows(list)]));

export function createEvaluator(deps: EvaluatorDeps) {
  const { tickDuration, rulesEvaluated, readErrors, evaluationErrors, ticks, warehouseReads, silenced } =
    deps.instruments;
  const actions = createRuleIncidentActions(deps);
  const readFailures = createReadFailureIncidents({
    reader: deps.reader,
    subjectIncidents: createSubjectIncidents({ ...deps, reader: deps.reader }),
  });

  const mirror = createRuleMirror(deps.reader, deps.ruleChanges);
  /** Each rule document's last decision, when it was quiet; a document the mirror dropped takes its entry with it. */
  const quietDecisions = new WeakMap<AlertRuleDoc, QuietDecision>();
  const tokensOf = windowsTokens();

  async function tick(): Promise<TickReport> {
    const started = performance.now();
    const lap = lapTimer(started);
    const buckets = ownedBuckets(deps.owns);
    await catchUpWithLog();
    await mirror.refresh();
    const { enabled: rules, orphaned } = mirror.rulesOf(buckets);
    const context = await startTick(rules);
    const phases = { rules: lap(), reads: 0, decide: 0, recordings: 0, settle: 0 };
    const readings = await readMetrics(rules, context.report);
    phases.reads = lap();
    await evaluateAll(rules, readings, context);
    phases.decide = lap();
    await awaitRecordings(context.recordings);
    phases.recordings = lap();
    await settleReadFailures(context);
    await actions.resolveOrphans(orphaned, context.tickId);
    phases.settle = lap();
    rulesEvaluated.inc(rules.length);
    context.report.phasesMs = phases;
    context.report.durationMs = performance.now() - started;
    tickDuration.observe(context.report.durationMs / 1000);
    return context.report;
  }

  /**
   * Every change accepted before the tick, on any instance, reaches this instance's projections
   * (and so the feed) before the rules are taken: a rule created, edited or disabled, and a rule
   * another member evaluated before this one took its bucket over, is as the read model says.
   */
  async function catchUpWithLog() {
    const head = await deps.eventStore.headPosition();
    if (head >= 0n && !(await deps.waitForProjections(head)))
      deps.logger.warn(
        { position: String(head) },
        'the rules are evaluated before the projections reached the log head',
      );
  }

  async function startTick(rules: readonly AlertRuleDoc[]): Promise<TickContext> {
    const now = deps.now();
    const active = rules.length > 0 && deps.activeWindows ? await deps.activeWindows(now) : NO_WINDOWS;
    const windows = indexByTenant(active);
    // Reported when the tick takes them on, not when it ends: a takeover shows at the first tick after it.
    deps.onOwnedRules?.(rules.length);
    const report = {
      rules: rules.length,
      metricReads: 0,
      triggered: 0,
      resolved: 0,
      errors: 0,
      recorded: 0,
      carriedOver: 0,
      readFailuresOpened: 0,
      readFailuresResolved: 0,
      durationMs: 0,
    };
    return {
      tickId: randomUUID(),
      now,
      nowMs: now.getTime(),
      at: now.toISOString(),
      windows,
      windowsTokens: tokensOf(active),
      report,
      recordings: [],
      paging: [],
    };
  }

  /** Each rule's reading, in the rules' order; each distinct (env, cluster, metric, window) is read once. */
  async function readMetrics(rules: readonly AlertRuleDoc[], report: TickReport): Promise<MetricReadResult[]> {
    const { readings, providerReads } = await readEachOnce(deps.metrics, rules);
    report.metricReads = providerReads;
    ticks.inc();
    warehouseReads.inc(report.metricReads);
    return readings;
  }

  /** Decides every rule (src/process/decision-slices.ts: slices of the event loop, actions batched). */
  function evaluateAll(rules: readonly AlertRuleDoc[], readings: MetricReadResult[], context: TickContext) {
    return decideInSlices(
      rules.length,
      (index) => evaluateRule(rules[index]!, readings[index]!, context),
      () => context.recordings.length,
    );
  }

  /**
   * Decides one rule: carries its last decision over when that was quiet and nothing it depends
   * on changed (src/process/quiet-decisions.ts), else decides afresh. When the decision changes
   * its incident, answers the action that carries it out and then finishes; otherwise finishes now.
   */
  function evaluateRule(rule: AlertRuleDoc, reading: MetricReadResult, context: TickContext) {
    const windowsToken = context.windowsTokens.get(rule.tenantId) ?? NO_WINDOWS_TOKEN;
    const quiet = quietDecisions.get(rule);
    if (quiet !== undefined && decidesAsBefore(quiet, rule, reading, windowsToken, context.nowMs)) {
      context.report.carriedOver++;
      if (quiet.outcome === 'silenced') silenced.inc();
      return undefined;
    }
    const watch = watchOf(rule);
    const decision = decideRule(rule, watch, reading, context.now, context.windows.get(rule.tenantId));
    if (decision.outcome === 'silenced') silenced.inc();
    if (!changesIncident(rule, decision)) {
      const recorded = finish(rule, watch, reading, decision, unchangedIncident(rule, decision), context);
      const kept = quietDecision(rule, watch, decision, { incident: false, recorded }, windowsToken, context.nowMs);
      if (kept) quietDecisions.set(rule, kept);
      else quietDecisions.delete(rule);
      return undefined;
    }
    quietDecisions.delete(rule);
    return async () => {
      let result: ActResult;
      try {
        result = await actions.act(rule, decision, context.tickId);
      } catch (error) {
        deps.logger.error({ err: error, ruleId: rule.id }, 'evaluation action failed');
        result = {
          outcome: 'error',
          incidentId: rule.activeIncidentId,
          error: `could not change the incident: ${(error as Error).message}`,
        };
        evaluationErrors.inc({ reason: 'other' });
      }
      finish(rule, watch, reading, decision, result, context);
    };
  }

  /** Counts one rule's evaluation, and records it when the history keeps it (answers whether it did). */
  function finish(
    rule: AlertRuleDoc,
    watch: RuleWatch,
    reading: MetricReadResult,
    decision: EvaluationDecision,
    result: ActResult,
    context: TickContext,
  ): boolean {
    const { report, tickId } = context;
    if (result.outcome === 'triggered') report.triggered++;
    if (result.outcome === 'resolved') report.resolved++;
    if (decision.outcome === 'error' || decision.outcome === 'no_data') {
      notePagingFailure(rule, watch, decision.outcome, decision.error, context);
      report.errors++;
      readErrors.inc();
      evaluationErrors.inc({
        reason: reading.ok ? 'other' : evaluationErrorReason(reading.error),
      });
    }
    const evaluation = evaluationOf(rule, context.at, decision, result);
    if (
      !shouldRecordEvaluation({
        ruleId: rule.id,
        since: rule.updatedAt,
        last: rule.lastRecorded ?? null,
        watch,
        evaluation,
      })
    )
      return false;
    report.recorded++;
    // Handled where it starts: a failed write must not become an unhandled rejection while
    // other workers are still busy; it is logged and counted, and the next tick evaluates again.
    context.recordings.push(
      recordEvaluation(deps.eventStore, rule, evaluation, tickId).then(
        ({ position }) => position,
        (error) => {
          report.errors++;
          deps.logger.error({ err: error, ruleId: rule.id }, 'could not record an evaluation');
          return -1n;
        },
      ),
    );
    return true;
  }

  /** Keeps the rule for its cluster's read-failure incident when its setting pages and it has failed long enough. */
  function notePagingFailure(
    rule: AlertRuleDoc,
    watch: RuleWatch,
    failure: 'error' | 'no_data',
    message: string,
    context: TickContext,
  ) {
    const verdict = readFailureVerdict(readFailureSettingsOf(rule), failure, watch.failingSince, context.now);
    if (verdict !== 'alerting') return;
    context.paging.push({
      tenantId: rule.tenantId,
      ruleId: rule.id,
      envId: rule.envId,
      clusterId: rule.clusterId,
      escalationPolicyId: rule.escalationPolicyId,
      severity: rule.severity,
      failure,
      message,
    });
  }

  /**
   * After the tick's evaluations are in the read model: open the read-failure incidents of the
   * paging rules, resolve those no rule fails for any more (src/process/read-failure-incidents.ts).
   * A failure here is logged and the next tick tries again; it does not stop the tick.
   */
  async function settleReadFailures(context: TickContext) {
    try {
      const { opened, subjects } = await readFailures.open(context.paging, context.tickId);
      context.report.readFailuresOpened = opened;
      context.report.readFailuresResolved = await readFailures.resolveRecovered(subjects, context.tickId);
    } catch (error) {
      context.report.errors++;
      deps.logger.error({ err: error }, 'could not open or resolve the incidents of read failures');
    }
  }

  /** The next tick decides on the pending clock these evaluations move: let the read model catch up. */
  async function awaitRecordings(recordings: Promise<bigint>[]) {
    const positions = await Promise.all(recordings);
    const last = positions.reduce((max, position) => (position > max ? position : max), -1n);
    if (last >= 0n && !(await deps.waitForProjections(last)))
      deps.logger.warn({ position: String(last) }, 'evaluations not yet projected when the tick ended');
  }

  return {
    tick,
    /** Reads every rule into memory ahead of the first tick (at start-up); a tick waits for it. */
    warm: () => mirror.refresh(),
    /** The rules held in memory (tests compare them with the read model). */
    rulesInMemory: () => mirror.all(),
  };
}

export type Evaluator = ReturnType<typeof createEvaluator>;
