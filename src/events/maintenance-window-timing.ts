/**
 * When a maintenance window is active, and which rules it covers: pure, on the same zone math the
 * on-call schedules use (src/oncall/zone-offsets.ts). A weekly window starts on each of its days at
 * its local start time, read with Temporal's `compatible` disambiguation (a start skipped by a
 * spring-forward lands later by the gap, a repeated one takes the earlier instant), and lasts its
 * duration in elapsed time: a 4-hour window over a DST change is 4 real hours.
 *
 * Occurrences are half-open [start, end): at `end` the window is over. A window has no occurrence
 * before it was created (`createdAt`: one created in the middle of an occurrence is active from
 * then on; one created with a start in the past did not silence that past), and none from the
 * instant it was ended early (`endedAt`).
 */
import { DAY_NAMES } from '../contract/weekly-recurrence.js';
import { instantOfWallClock, wallClockAt } from '../oncall/zone-offsets.js';
import type { WindowMatcher, WindowTiming } from './maintenance-window.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface TimedWindow {
  timing: WindowTiming;
  /** When the window was created: it silences nothing before (live, and in a backtest). */
  createdAt: string;
  endedAt: string | null;
}

export interface Occurrence {
  start: number;
  end: number;
}

/** `HH:MM` → minutes after local midnight (the schema has checked the shape). */
export const minutesOfDay = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The window's occurrences that overlap [from, to), oldest first, cut to [`createdAt`, `endedAt`). */
export function occurrencesBetween(window: TimedWindow, from: number, to: number): Occurrence[] {
  const begin = Date.parse(window.createdAt);
  const stop = window.endedAt === null ? Infinity : Date.parse(window.endedAt);
  const raw: Occurrence[] = [];
  const { timing } = window;
  if (timing.kind === 'once') {
    raw.push({ start: Date.parse(timing.startsAt), end: Date.parse(timing.endsAt) });
  } else {
    const lengthMs = timing.durationMinutes * MINUTE_MS;
    const offsetMs = minutesOfDay(timing.startTime) * MINUTE_MS;
    // Local days whose occurrence can reach `from`, through the day `to` falls on.
    const firstDay =
      Math.floor(wallClockAt(timing.timeZone, from) / DAY_MS) * DAY_MS - Math.ceil(lengthMs / DAY_MS) * DAY_MS - DAY_MS;
    const lastDay = Math.floor(wallClockAt(timing.timeZone, to) / DAY_MS) * DAY_MS + DAY_MS;
    for (let day = firstDay; day <= lastDay; day += DAY_MS) {
      if (!timing.days.includes(DAY_NAMES[new Date(day).getUTCDay()]!)) continue;
      const start = instantOfWallClock(timing.timeZone, day + offsetMs);
      raw.push({ start, end: start + lengthMs });
    }
  }
  return raw
    .filter((o) => o.start < stop && o.end > begin)
    .map((o) => ({ start: Math.max(o.start, begin), end: Math.min(o.end, stop) }))
    .filter((o) => o.end > o.start && o.end > from && o.start < to);
}

/** The occurrence active at `at` (the one ending last if several overlap), or null. */
export function activeOccurrence(window: TimedWindow, at: number): Occurrence | null {
  const covering = occurrencesBetween(window, at, at + 1).filter((o) => o.start <= at && at < o.end);
  return covering.reduce<Occurrence | null>((latest, o) => (latest === null || o.end > latest.end ? o : latest), null);
}

export const isWindowActive = (window: TimedWindow, at: number) => activeOccurrence(window, at) !== null;

/**
 * How far the end of an active stretch is looked for. A stretch that a weekly window's occurrences
 * keep going through every clock change of a year (its pattern repeats from year to year) goes on
 * for good; only a window stored before recurrences had to leave a gap can be one.
 */
const STRETCH_SEARCH_MS = 400 * DAY_MS;
const STRETCH_STEP_MS = 8 * DAY_MS;

/** The end of the stretch of touching or overlapping occurrences that is active at `at`, or null when it does not end within the search. */
function stretchEnd(window: TimedWindow, at: number, current: Occurrence): number | null {
  let end = current.end;
  for (let from = at; from < at + STRETCH_SEARCH_MS; from += STRETCH_STEP_MS) {
    const to = from + STRETCH_STEP_MS;
    // Oldest first: an occurrence starting after the stretch's end leaves a gap, and so does a step that the stretch ends inside.
    for (const occurrence of occurrencesBetween(window, from, to)) {
      if (occurrence.start > end) return end;
      end = Math.max(end, occurrence.end);
    }
    if (end < to) return end;
  }
  return null;
}

/**
 * The first instant after `at` at which the window turns active or inactive, or null when it does
 * not change again (a one-off window that is over, an ended one, or a weekly window stored with
 * occurrences that never leave a gap: active for good). Overlapping or touching occurrences count
 * as one stretch, followed to its real end (over a clock change, say, where the gap opens).
 */
export function nextBoundary(window: TimedWindow, at: number): number | null {
  const current = activeOccurrence(window, at);
  if (current !== null) return stretchEnd(window, at, current);
  const horizon = window.timing.kind === 'once' ? Date.parse(window.timing.endsAt) + 1 : at + 8 * DAY_MS;
  const starts = occurrencesBetween(window, at, Math.max(horizon, at + 1))
    .map((o) => o.start)
    .filter((start) => start > at);
  return starts.length === 0 ? null : Math.min(...starts);
}

/** What a matcher looks at of a rule (or of an incident, which copies them from its rule). */
export interface MatchedRule {
  /** null: an incident with no rule (a heartbeat's, a read failure's, the platform's): only windows for every rule, a cluster or a severity hold it. */
  ruleId: string | null;
  clusterId: string | null;
  severity: string;
}

/** Every list the matcher gives must contain the rule's value; `allRules` matches every rule. */
export function windowMatchesRule(matcher: WindowMatcher, rule: MatchedRule): boolean {
  if (matcher.allRules) return true;
  if (matcher.ruleIds.length > 0 && (rule.ruleId === null || !matcher.ruleIds.includes(rule.ruleId))) return false;
  if (matcher.clusterIds.length > 0 && (rule.clusterId === null || !matcher.clusterIds.includes(rule.clusterId)))
    return false;
  if (matcher.severities.length > 0 && !(matcher.severities as readonly string[]).includes(rule.severity)) return false;
  return matcher.ruleIds.length + matcher.clusterIds.length + matcher.severities.length > 0;
}

/**
 * Windows indexed by what their matchers name, so a rule is checked only against the windows that
 * can match it (the evaluator builds one per tenant per tick; with 50 windows a tenant, checking
 * each rule against all of them cost more than the rest of its decision).
 */
export interface WindowIndex<W extends { id: string; matcher: WindowMatcher }> {
  size: number;
  /** Candidates by key (`*` every rule, `r:<ruleId>`, `c:<clusterId>`, `s:<severity>`), with their order in the list. */
  byKey: Map<string, { order: number; window: W }[]>;
}

export function indexWindows<W extends { id: string; matcher: WindowMatcher }>(windows: readonly W[]): WindowIndex<W> {
  const byKey = new Map<string, { order: number; window: W }[]>();
  const add = (key: string, order: number, window: W) => {
    const list = byKey.get(key);
    if (list) list.push({ order, window });
    else byKey.set(key, [{ order, window }]);
  };
  windows.forEach((window, order) => {
    const { matcher } = window;
    // Indexed under one list only: every list must match, so any one of them finds all candidates.
    if (matcher.allRules) add('*', order, window);
    else if (matcher.ruleIds.length > 0) for (const id of matcher.ruleIds) add(`r:${id}`, order, window);
    else if (matcher.clusterIds.length > 0) for (const id of matcher.clusterIds) add(`c:${id}`, order, window);
    else for (const severity of matcher.severities) add(`s:${severity}`, order, window);
  });
  return { size: windows.length, byKey };
}

/** The first window (in list order) whose matcher matches the rule, or null. */
export function matchingWindow<W extends { id: string; matcher: WindowMatcher }>(
  index: WindowIndex<W>,
  rule: MatchedRule,
): W | null {
  if (index.size === 0) return null;
  let best: { order: number; window: W } | null = null;
  for (const key of [
    '*',
    rule.ruleId === null ? null : `r:${rule.ruleId}`,
    rule.clusterId === null ? null : `c:${rule.clusterId}`,
    `s:${rule.severity}`,
  ]) {
    if (key === null) continue;
    for (const candidate of index.byKey.get(key) ?? []) {
      if ((best === null || candidate.order < best.order) && windowMatchesRule(candidate.window.matcher, rule))
        best = candidate;
    }
  }
  return best?.window ?? null;
}
