/**
 * A rule's decision carried over from its last tick when nothing it depends on has changed, pure.
 *
 * Nearly every rule, nearly every tick, decides what it decided a minute ago: `ok` (or `pending`,
 * held `unchanged`, `silenced`), no incident changes, nothing recorded. Deciding 100,000 such rules
 * afresh (their watch, the decision, the evaluation, the recording rule) was most of a steady
 * tick's CPU. A decision is *quiet* when it changes no incident and the history does not record it
 * (src/process/evaluation-record.ts); it depends on nothing but
 * - the rule's document: condition, threshold, window, severity, cluster, incident, watch (pending
 *   since, re-armed), last recorded evaluation and `updatedAt`. The evaluator's mirror replaces a
 *   document, never changes it, whenever the read model changes it (src/process/rule-mirror.ts):
 *   the same document object means none of these changed (a rule edit, a recorded evaluation, an
 *   incident opened or resolved by anyone is a new document);
 * - of the reading, whether it is a value and whether that value meets the condition (the value
 *   itself goes only into a recorded evaluation or an incident, neither of which a quiet decision
 *   makes). A failed or missing reading is never quiet: its error, and when its failure pages
 *   (src/process/read-failure-decision.ts), are decided every tick;
 * - the maintenance windows active in the rule's tenant (which one matches the rule);
 * - the time at two instants only: the end of the pending clock (pending since + the rule's
 *   window: `pending` becomes `triggered`) and the rule's next hour turn (the history records one
 *   evaluation an hour).
 * So while the document is the same object, the reading meets the condition as it did, the
 * tenant's windows are the same, and the tick's instant lies before both of those, the decision is
 * the same and does the same: nothing but being counted. test/quiet-decisions.test.ts runs the
 * same ticks with and without carrying decisions over and compares incidents and history.
 */
import type { AlertRuleDoc } from '../../projections/alert-rules.js';
import type { RuleWatch } from '../events/rule-evaluation.js';
import type { MetricReadResult } from '../gateways/warehouse/metrics/provider.js';
import { conditionMet, type ActiveWindow, type EvaluationDecision } from './evaluation-decision.js';
import { nextHourTurn } from './evaluation-record.js';

/** Stands for one set of active windows of a tenant; equal sets get the same token tick after tick. */
export type WindowsToken = object;
/** The token of a tenant with no active window. */
export const NO_WINDOWS_TOKEN: WindowsToken = Object.freeze({});

export interface QuietDecision {
  outcome: 'ok' | 'pending' | 'unchanged' | 'silenced';
  conditionMet: boolean;
  windows: WindowsToken;
  /** The instant it was decided at (ms): an earlier clock is not trusted with it. */
  from: number;
  /** The first instant (ms) at which the time alone can change the decision or its recording. */
  until: number;
}

const QUIET_OUTCOMES: ReadonlySet<string> = new Set(['ok', 'pending', 'unchanged', 'silenced']);

/**
 * What the evaluator keeps of a decision just made, or undefined when the next tick must decide
 * afresh: it changed an incident, was recorded, or had no reading.
 */
export function quietDecision(
  rule: AlertRuleDoc,
  watch: RuleWatch,
  decision: EvaluationDecision,
  changes: { incident: boolean; recorded: boolean },
  windows: WindowsToken,
  now: number,
): QuietDecision | undefined {
  if (changes.incident || changes.recorded || !QUIET_OUTCOMES.has(decision.outcome) || !('conditionMet' in decision))
    return undefined;
  let until = nextHourTurn(rule.id, rule.lastRecorded?.at ?? rule.updatedAt);
  if (watch.pendingSince !== null)
    until = Math.min(until, Date.parse(watch.pendingSince) + rule.evaluationWindowMinutes * 60_000);
  if (!(until > now)) return undefined;
  return {
    outcome: decision.outcome as QuietDecision['outcome'],
    conditionMet: decision.conditionMet,
    windows,
    from: now,
    until,
  };
}

/** Whether the rule, as the same document, with this reading, these windows, at this instant, decides as before. */
export function decidesAsBefore(
  quiet: QuietDecision,
  rule: AlertRuleDoc,
  reading: MetricReadResult,
  windows: WindowsToken,
  now: number,
): boolean {
  return (
    reading.ok &&
    now >= quiet.from &&
    now < quiet.until &&
    windows === quiet.windows &&
    conditionMet(rule.condition, reading.value, rule.threshold) === quiet.conditionMet
  );
}

/**
 * Gives each tenant's active windows a token, the same one as last tick's when the set (ids and
 * matchers, in order) is the same. Called once per tick with every tenant's active windows.
 */
export function windowsTokens() {
  let previous = new Map<string, WindowsToken>();
  return (byTenant: ReadonlyMap<string, readonly ActiveWindow[]>): Map<string, WindowsToken> => {
    const current = new Map<string, WindowsToken>();
    const tokens = new Map<string, WindowsToken>();
    for (const [tenantId, windows] of byTenant) {
      if (windows.length === 0) continue;
      const key = JSON.stringify(windows.map((window) => [window.id, window.matcher]));
      const token = current.get(key) ?? previous.get(key) ?? {};
      current.set(key, token);
      tokens.set(tenantId, token);
    }
    previous = current;
    return tokens;
  };
}
