/**
 * A rule backtest's replay: the evaluator's own decision (decideEvaluation) and watch fold
 * (watchAfterEvaluation) run over a recorded series instead of live readings, so "would this rule
 * have fired?" is answered by the code that fires it. Pure: readings in, would-be incidents out.
 *
 * A missing reading (no history at that instant) is what a failed metric read is to the live
 * evaluator: it neither opens nor resolves an incident, and the pending clock neither resets nor
 * advances. It is reported as a gap, never filled in.
 *
 * Maintenance windows silence as they do live: at each instant the windows active then (a
 * maintenanceTimeline) go into the same decision, so an evaluation inside one is `silenced` (no
 * incident opens; the pending clock keeps running while the condition holds) and an incident whose
 * condition still holds opens at the first evaluation after the window.
 */
import { watchAfterEvaluation, initialRuleWatch, type RuleWatch } from '../events/rule-evaluation.js';
import { conditionMet, decideEvaluation, type Condition, type Maintenance } from '../process/evaluation-decision.js';

export interface ReplayedRule {
  condition: Condition;
  threshold: number;
  windowMinutes: number;
}

export interface WouldBeIncident {
  startedAt: number;
  /** When it would have resolved; null: still open at the end of the range. */
  endedAt: number | null;
  /** The reading furthest past the threshold while it was open (largest for gt/gte, smallest for lt/lte). */
  peakValue: number;
}

export interface Gap {
  /** The first instant without a reading. */
  from: number;
  /** The next instant with a reading, or the end of the range. */
  to: number;
}

export interface ReplayResult {
  /** Evaluations that had a reading. */
  evaluations: number;
  /** Instants with no reading (inside gaps). */
  missing: number;
  /** Evaluations whose reading met the condition. */
  breaches: number;
  /** Evaluations a maintenance window silenced, and how many each window silenced (by id). */
  silenced: number;
  silencedBy: Map<string, number>;
  incidents: WouldBeIncident[];
  gaps: Gap[];
}

const NO_HISTORY = 'no recorded history at this instant';

const worse = (condition: Condition, a: number, b: number) =>
  condition === 'lt' || condition === 'lte' ? Math.min(a, b) : condition === 'eq' ? a : Math.max(a, b);

/**
 * Replays `readings[i]` at `instants[i]` (epoch ms, ascending; null = no reading) from a rule with
 * no open incident and no pending clock. `until` closes a gap that runs to the end. `maintenanceAt`
 * answers the windows active at each instant (asked in ascending order); none: no windows.
 */
export function replayRule(
  rule: ReplayedRule,
  instants: readonly number[],
  readings: readonly (number | null)[],
  until: number,
  maintenanceAt?: (at: number) => Maintenance | undefined,
): ReplayResult {
  const result: ReplayResult = {
    evaluations: 0,
    missing: 0,
    breaches: 0,
    silenced: 0,
    silencedBy: new Map(),
    incidents: [],
    gaps: [],
  };
  let watch: RuleWatch = initialRuleWatch();
  let open: WouldBeIncident | null = null;
  let gapFrom: number | null = null;
  for (let i = 0; i < instants.length; i++) {
    const at = instants[i]!;
    const value = readings[i] ?? null;
    if (value === null) {
      result.missing++;
      gapFrom ??= at;
    } else {
      if (gapFrom !== null) result.gaps.push({ from: gapFrom, to: at });
      gapFrom = null;
      result.evaluations++;
    }
    const now = new Date(at);
    const decision = decideEvaluation(
      { ...rule, hasActiveIncident: open !== null, pendingSince: watch.pendingSince, rearmed: watch.rearmed },
      value === null ? { ok: false, error: NO_HISTORY } : { ok: true, value },
      now,
      maintenanceAt?.(at),
    );
    if (decision.outcome === 'error' || decision.outcome === 'no_data') {
      watch = watchAfterEvaluation(watch, {
        at: now.toISOString(),
        outcome: 'error',
        conditionMet: null,
        error: decision.error,
      });
      continue;
    }
    if (decision.conditionMet) result.breaches++;
    if (decision.outcome === 'silenced') {
      result.silenced++;
      result.silencedBy.set(decision.windowId, (result.silencedBy.get(decision.windowId) ?? 0) + 1);
    }
    if (decision.action === 'trigger') {
      open = { startedAt: at, endedAt: null, peakValue: decision.value };
      result.incidents.push(open);
    } else if (decision.action === 'resolve' && open) {
      open.endedAt = at;
      open = null;
    } else if (open && conditionMet(rule.condition, decision.value, rule.threshold)) {
      open.peakValue = worse(rule.condition, open.peakValue, decision.value);
    }
    // A silenced evaluation runs the pending clock only while no incident is open, as live.
    watch = watchAfterEvaluation(watch, {
      at: now.toISOString(),
      outcome: decision.outcome,
      conditionMet: decision.conditionMet,
      error: null,
      incidentId: open === null ? null : 'open',
    });
  }
  if (gapFrom !== null) result.gaps.push({ from: gapFrom, to: until });
  return result;
}

/** The instants a backtest evaluates: `since`, then every `stepMs`, up to and including `until`. */
export function replayInstants(since: number, until: number, stepMs: number): number[] {
  const instants: number[] = [];
  for (let at = since; at <= until; at += stepMs) instants.push(at);
  return instants;
}
