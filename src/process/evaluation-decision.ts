/**
 * What one evaluation of one rule means, as a pure function of the rule's condition and window,
 * its state as the read model has it (active incident, pending since, re-armed) and the metric
 * reading (SPEC.md, Alert incident state table; README, The evaluator).
 */
import type { WindowMatcher } from '../events/maintenance-window.js';
import { matchingWindow, type MatchedRule, type WindowIndex } from '../events/maintenance-window-timing.js';
import type { Condition } from '../events/vocabulary.js';

export type { Condition };

/** A reading, or why there is none: the read failed (`error`) or the warehouse had no value (`no_data`). */
export type MetricReading = { ok: true; value: number } | { ok: false; error: string; noData?: boolean };

export interface RuleUnderEvaluation {
  condition: Condition;
  threshold: number;
  /** How long the condition must hold before an incident is triggered; 0 triggers at once. */
  windowMinutes: number;
  hasActiveIncident: boolean;
  /** ISO time of the first of the unbroken run of breaching evaluations, or null. */
  pendingSince: string | null;
  /** false after a manual resolve, until the condition has cleared once. */
  rearmed: boolean;
}

export type EvaluationDecision =
  | { outcome: 'triggered'; action: 'trigger'; value: number; conditionMet: true }
  | { outcome: 'pending'; action: 'none'; value: number; conditionMet: true }
  | { outcome: 'resolved'; action: 'resolve'; value: number; conditionMet: false }
  | { outcome: 'unchanged'; action: 'none'; value: number; conditionMet: true }
  | { outcome: 'ok'; action: 'none'; value: number; conditionMet: false }
  | { outcome: 'error'; action: 'none'; error: string }
  | { outcome: 'no_data'; action: 'none'; error: string }
  | { outcome: 'silenced'; action: 'none'; value: number; conditionMet: boolean; windowId: string };

/** A maintenance window active at the evaluation's instant (the evaluator loads them once per tick). */
export interface ActiveWindow {
  id: string;
  matcher: WindowMatcher;
}

/** The windows active now in the rule's tenant (indexed: indexWindows), and what their matchers look at of the rule. */
export interface Maintenance {
  rule: MatchedRule;
  windows: WindowIndex<ActiveWindow>;
}

/**
 * The look-back a rule's metric is read over: its window, and the last minute for a window of 0
 * (trigger at the first breach). The evaluator and the backtest both read through this.
 */
export const metricWindowMinutes = (windowMinutes: number) => Math.max(1, windowMinutes);

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

/**
 * While an active window matches the rule, an evaluation that would open an incident, wait for
 * one (pending), find all clear or leave an open one as it is, is `silenced` with the window's id
 * instead: nothing opens, and the pending clock keeps running while the condition holds (the
 * incident opens at the first evaluation after the window, once the rule's window is full). A
 * failed reading stays an error, and a clearing condition still resolves an open incident: the
 * window holds pages back, it does not keep incidents open.
 */
export function decideEvaluation(
  rule: RuleUnderEvaluation,
  reading: MetricReading,
  now: Date,
  maintenance?: Maintenance,
): EvaluationDecision {
  const decision = decideUnsilenced(rule, reading, now);
  if (
    decision.outcome === 'error' ||
    decision.outcome === 'no_data' ||
    decision.outcome === 'resolved' ||
    !maintenance ||
    maintenance.windows.size === 0
  )
    return decision;
  const window = matchingWindow(maintenance.windows, maintenance.rule);
  if (!window) return decision;
  return {
    outcome: 'silenced',
    action: 'none',
    value: decision.value,
    conditionMet: decision.conditionMet,
    windowId: window.id,
  };
}

function decideUnsilenced(rule: RuleUnderEvaluation, reading: MetricReading, now: Date): EvaluationDecision {
  // A metric that cannot be read says nothing about the condition: no incident changes, and the
  // pending clock neither resets nor advances (the trigger still needs a breaching reading). Whether
  // the failure pages is the rule's on_error / on_no_data (src/process/read-failure-decision.ts).
  if (!reading.ok) return { outcome: reading.noData ? 'no_data' : 'error', action: 'none', error: reading.error };
  const value = reading.value;
  if (!conditionMet(rule.condition, value, rule.threshold)) {
    return rule.hasActiveIncident
      ? { outcome: 'resolved', action: 'resolve', value, conditionMet: false }
      : { outcome: 'ok', action: 'none', value, conditionMet: false };
  }
  // Held by an open incident, or by a manual resolve until the condition clears once.
  if (rule.hasActiveIncident || !rule.rearmed)
    return { outcome: 'unchanged', action: 'none', value, conditionMet: true };
  const since = rule.pendingSince === null ? now.getTime() : Date.parse(rule.pendingSince);
  if (now.getTime() - since >= rule.windowMinutes * 60_000)
    return { outcome: 'triggered', action: 'trigger', value, conditionMet: true };
  return { outcome: 'pending', action: 'none', value, conditionMet: true };
}
