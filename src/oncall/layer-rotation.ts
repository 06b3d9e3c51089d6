/**
 * When a layer hands over, and whose turn it is at an instant.
 *
 * Turn 0 starts at the layer's start instant. Turn k > 0 starts at the start's wall clock plus k
 * rotation periods, resolved in the schedule's zone (see zone-offsets.ts), so a layer created in
 * summer keeps handing over at the same local time in winter. Everything is in milliseconds: these
 * functions run once per handoff while a schedule is rendered.
 */
import type { Layer, RotationType } from './schedule-definition.js';
import { instantOfWallClock, isValidTimeZone, wallClockAt } from './zone-offsets.js';
import { parseScheduleTime } from './zoned-iso.js';

const DAY_MS = 86_400_000;
const PERIOD_DAYS: Record<RotationType, number> = { daily: 1, weekly: 7 };

/** Where a layer's turns are counted from, ready for arithmetic. */
export interface RotationAnchor {
  startInstant: number;
  startWallClock: number;
  periodMs: number;
}

export interface Handoff {
  instant: number;
  turn: number;
}

export function rotationAnchor(layer: Pick<Layer, 'rotationType' | 'startTime'>, timeZone: string): RotationAnchor {
  const periodDays = PERIOD_DAYS[layer.rotationType];
  if (periodDays === undefined) throw new RangeError(`unknown rotation type: ${String(layer.rotationType)}`);
  const startInstant = parseScheduleTime(layer.startTime, timeZone);
  return { startInstant, startWallClock: wallClockAt(timeZone, startInstant), periodMs: periodDays * DAY_MS };
}

/** The instant turn `turn` (>= 0) begins. */
export function handoffInstant(timeZone: string, anchor: RotationAnchor, turn: number): number {
  if (turn === 0) return anchor.startInstant;
  return instantOfWallClock(timeZone, anchor.startWallClock + turn * anchor.periodMs);
}

/** The turn running at an instant; -1 before the layer starts. */
export function turnAt(timeZone: string, anchor: RotationAnchor, instant: number): number {
  if (instant < anchor.startInstant) return -1;
  // The wall clock gives the turn except within a gap's or a repeat's length of a handoff; the
  // two checks below settle those cases against the handoff instants themselves.
  let turn = Math.max(0, Math.floor((wallClockAt(timeZone, instant) - anchor.startWallClock) / anchor.periodMs));
  while (turn > 0 && handoffInstant(timeZone, anchor, turn) > instant) turn -= 1;
  while (handoffInstant(timeZone, anchor, turn + 1) <= instant) turn += 1;
  return turn;
}

/** The turn running at `from` (-1 before the start) and every handoff in [from, to), in order. */
export function turnsBetween(
  timeZone: string,
  anchor: RotationAnchor,
  from: number,
  to: number,
): { turnAtFrom: number; handoffs: Handoff[] } {
  const turnAtFrom = turnAt(timeZone, anchor, from);
  const handoffs: Handoff[] = [];
  let turn = turnAtFrom < 0 || handoffInstant(timeZone, anchor, turnAtFrom) < from ? turnAtFrom + 1 : turnAtFrom;
  for (
    let instant = handoffInstant(timeZone, anchor, turn);
    instant < to;
    instant = handoffInstant(timeZone, anchor, ++turn)
  ) {
    handoffs.push({ instant, turn });
  }
  return { turnAtFrom, handoffs };
}

/**
 * A layer's handoff instants in [from, to), turn 0 (the start) included when it falls inside.
 * Throws RangeError for an unknown zone, rotation type or start time.
 */
export function layerHandoffs(
  layer: Pick<Layer, 'rotationType' | 'startTime'>,
  timeZone: string,
  from: Date,
  to: Date,
): Date[] {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
  return turnsBetween(timeZone, rotationAnchor(layer, timeZone), from.getTime(), to.getTime()).handoffs.map(
    (handoff) => new Date(handoff.instant),
  );
}
