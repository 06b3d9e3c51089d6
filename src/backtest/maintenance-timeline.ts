/**
 * Which maintenance windows a backtest's instants fall in, pure: the tenant's windows (ended ones
 * too, cut at their `endedAt`), their occurrences over the range by the same timing the evaluator
 * asks each tick (src/events/maintenance-window-timing.ts), and at each instant the ones active then,
 * indexed as the evaluator indexes them, for decideEvaluation to decide on. Occurrences are computed
 * once for the range, not per instant: 44,641 one-minute instants × zone math per window would cost
 * more than the replay itself.
 */
import type { WindowMatcher } from '../events/maintenance-window.js';
import {
  indexWindows,
  occurrencesBetween,
  windowMatchesRule,
  type MatchedRule,
  type TimedWindow,
} from '../events/maintenance-window-timing.js';
import type { ActiveWindow, Maintenance } from '../process/evaluation-decision.js';

export interface BacktestWindow extends TimedWindow {
  id: string;
  name: string;
  matcher: WindowMatcher;
}

interface Span {
  start: number;
  end: number;
  window: ActiveWindow;
  order: number;
}

/**
 * A reader of the windows active at ascending instants in [from, to]: `at(instant)` answers the
 * Maintenance to decide with, or undefined when no window matching the rule is active then. Only
 * windows whose matcher matches the rule are kept (the others could never silence it).
 */
export function maintenanceTimeline(windows: readonly BacktestWindow[], rule: MatchedRule, from: number, to: number) {
  const spans: Span[] = [];
  windows.forEach((window, order) => {
    if (!windowMatchesRule(window.matcher, rule)) return;
    for (const o of occurrencesBetween(window, from, to + 1))
      spans.push({ start: o.start, end: o.end, window: { id: window.id, matcher: window.matcher }, order });
  });
  spans.sort((a, b) => a.start - b.start);
  let next = 0;
  let active: Span[] = [];
  let key = '';
  let current: Maintenance | undefined = undefined;
  let last = -Infinity;
  return {
    /** Every occurrence of a window matching the rule over the range, by start. */
    spans: spans.map((span) => ({ start: span.start, end: span.end, windowId: span.window.id })),
    /** Instants must not go backwards (the replay's are ascending). */
    at(instant: number): Maintenance | undefined {
      if (instant < last) throw new Error('maintenanceTimeline: instants must be ascending');
      last = instant;
      let changed = false;
      while (next < spans.length && spans[next]!.start <= instant) {
        active.push(spans[next++]!);
        changed = true;
      }
      if (active.some((span) => span.end <= instant)) {
        active = active.filter((span) => span.end > instant);
        changed = true;
      }
      // Most instants change nothing: the set, and its index, are rebuilt only when a span starts or ends.
      if (!changed) return current;
      const ordered = [...active].sort((a, b) => a.order - b.order);
      const nextKey = ordered.map((span) => span.window.id).join(',');
      if (nextKey !== key) {
        key = nextKey;
        // One window overlapping itself (weekly occurrences) is listed once.
        const unique = [...new Map(ordered.map((span) => [span.window.id, span.window])).values()];
        current = unique.length === 0 ? undefined : { rule, windows: indexWindows(unique) };
      }
      return current;
    },
  };
}
