/**
 * Who is on call at an instant, and the edges of their continuous stretch in the final schedule.
 *
 * The stretch merges neighbouring segments of the same person whatever put them there: someone who
 * covers their own layer turn with an override, or whose turn runs on in a lower layer after an
 * upper layer's gap, is on call without a break, and "on call since/until" should say so. The
 * source (layer or override, with its index or id) is the one in force at the asked instant.
 *
 * The search is bounded to ON_CALL_HORIZON_DAYS each way. A stretch still running at the forward
 * horizon has `until: null` (no end in sight, as for a one-person layer). A stretch that began
 * before the backward horizon reports the horizon as `since`: the answer is then "on call for at
 * least that long". Windows grow by doubling from one day, so a typical answer renders a day or two.
 */
import { compileSchedule, type CompiledSchedule } from './compiled-schedule.js';
import { attributionOf, renderSpans, type RenderedSpan } from './render-schedule.js';
import type { CurrentOnCall, IsActiveUser, OnCallSource, ScheduleDefinition } from './schedule-definition.js';

export const ON_CALL_HORIZON_DAYS = 90;

const DAY_MS = 86_400_000;
const HORIZON_MS = ON_CALL_HORIZON_DAYS * DAY_MS;

/** End of the run of `userId` that starts with spans[0]; spans[0] is that user's. */
function runEnd(spans: RenderedSpan[], userId: string): number {
  let end = spans[0]!.end;
  for (let index = 1; index < spans.length && spans[index]!.start === end && spans[index]!.userId === userId; index++) {
    end = spans[index]!.end;
  }
  return end;
}

/** Start of the run of `userId` that ends at `end` with the last span, or `end` when there is none. */
function runStart(spans: RenderedSpan[], userId: string, end: number): number {
  let start = end;
  for (
    let index = spans.length - 1;
    index >= 0 && spans[index]!.end === start && spans[index]!.userId === userId;
    index--
  ) {
    start = spans[index]!.start;
  }
  return start;
}

function stretchForward(schedule: CompiledSchedule, at: number): { first: RenderedSpan; until: number | null } | null {
  for (let window = DAY_MS; ; window = Math.min(window * 2, HORIZON_MS)) {
    const spans = renderSpans(schedule, at, at + window);
    const first = spans[0];
    if (first === undefined || first.start !== at) return null;
    const end = runEnd(spans, first.userId);
    if (end < at + window) return { first, until: end };
    if (window === HORIZON_MS) return { first, until: null };
  }
}

function stretchBackward(schedule: CompiledSchedule, at: number, userId: string): number {
  for (let window = DAY_MS; ; window = Math.min(window * 2, HORIZON_MS)) {
    const start = runStart(renderSpans(schedule, at - window, at), userId, at);
    if (start > at - window || window === HORIZON_MS) return start;
  }
}

/**
 * The person on call at `at`, or null when nobody is. Throws RangeError for an unreadable
 * definition or an invalid date.
 */
export function currentOnCall(
  definition: ScheduleDefinition,
  at: Date,
  isActiveUser: IsActiveUser,
): CurrentOnCall | null {
  const instant = at.getTime();
  if (Number.isNaN(instant)) throw new RangeError('at must be a valid date');
  const schedule = compileSchedule(definition, isActiveUser);
  const ahead = stretchForward(schedule, instant);
  if (ahead === null) return null;
  return {
    userId: ahead.first.userId,
    ...attributionOf(ahead.first),
    since: new Date(stretchBackward(schedule, instant, ahead.first.userId)),
    until: ahead.until === null ? null : new Date(ahead.until),
  };
}

/**
 * Only who is on call at `at` and why (no stretch), in a schedule compiled once: what a stage's
 * target resolution needs, a one-millisecond render rather than windows of days each way.
 */
export function onCallAtInstant(schedule: CompiledSchedule, at: Date): { userId: string; source: OnCallSource } | null {
  const instant = at.getTime();
  if (Number.isNaN(instant)) throw new RangeError('at must be a valid date');
  const first = renderSpans(schedule, instant, instant + 1)[0];
  return first === undefined || first.start !== instant ? null : { userId: first.userId, source: attributionOf(first) };
}
