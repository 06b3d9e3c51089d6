/**
 * Time-zone arithmetic on IANA zones with nothing but `Intl.DateTimeFormat`.
 *
 * Two kinds of millisecond numbers meet here, and the names keep them apart:
 * - an *instant* is epoch milliseconds (what `Date#getTime` returns);
 * - a *wall clock* is the local date and time read as if it were UTC, so `Date.UTC(2026, 2, 8, 2, 30)`
 *   is "08 March 2026, 02:30 local". Adding n × 86,400,000 to a wall clock moves n calendar days and
 *   keeps the time of day, which is what rotations need.
 *
 * A zone's offset at an instant is wall clock minus instant. Wall clock → instant follows Temporal's
 * `compatible` disambiguation: a wall clock skipped by a spring-forward is read with the offset in
 * force before the gap (so it lands later by the gap's length: 02:30 becomes 03:30 when 02:00 jumps
 * to 03:00), and a wall clock repeated by a fall-back takes the earlier of its two instants.
 * Like the Temporal polyfill, it assumes a zone changes offset at most once within a day either side
 * of the wall clock: real offset changes are weeks or months apart.
 *
 * Supported instants: years 1000 to 9999, where `Intl` prints a plain four-digit year.
 */

const DAY_MS = 86_400_000;
const FIRST_SUPPORTED_INSTANT = Date.UTC(1000, 0, 2);
const LAST_SUPPORTED_INSTANT = Date.UTC(9999, 11, 30);

/** `Intl.DateTimeFormat` is costly to construct, and the same few zones are asked again and again. */
const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Stretches of time over which a zone's offset is known to stay put, so most offsets are answered
 * without `Intl` (the cost of rendering is otherwise almost all `Intl` calls). A stretch is recorded
 * when wall clock → instant finds the same offset a day either side; under the same assumption that
 * conversion rests on (at most one change within those two days), nothing changes in between.
 * Overlapping stretches with the same offset are merged, so a rendered range leaves a few long ones.
 */
interface SteadyStretch {
  from: number;
  to: number;
  offset: number;
}
const STRETCHES_PER_ZONE = 32;
const steadyStretches = new Map<string, SteadyStretch[]>();

function knownOffset(timeZone: string, instant: number): number | undefined {
  const stretches = steadyStretches.get(timeZone);
  if (stretches === undefined) return undefined;
  for (const stretch of stretches) if (stretch.from <= instant && instant <= stretch.to) return stretch.offset;
  return undefined;
}

function rememberSteady(timeZone: string, from: number, to: number, offset: number): void {
  const stretches = steadyStretches.get(timeZone) ?? [];
  steadyStretches.set(timeZone, stretches);
  const merged: SteadyStretch = { from, to, offset };
  for (let index = stretches.length - 1; index >= 0; index--) {
    const stretch = stretches[index]!;
    if (stretch.offset === offset && stretch.from <= merged.to && merged.from <= stretch.to) {
      merged.from = Math.min(merged.from, stretch.from);
      merged.to = Math.max(merged.to, stretch.to);
      stretches.splice(index, 1);
    }
  }
  stretches.push(merged);
  if (stretches.length > STRETCHES_PER_ZONE) stretches.shift();
}

// "03/08/2026, 02:30:00" with hourCycle h23, month/day 2-digit, year numeric.
const WALL_CLOCK_TEXT = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClockFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClockFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * True for names `Intl` knows as IANA zones (aliases such as `US/Eastern` and any letter case
 * included, since they compute the same offsets). Fixed-offset strings like `+05:00` are not zone
 * names and are refused.
 */
export function isValidTimeZone(name: string): boolean {
  if (typeof name !== 'string' || name.length === 0 || /^[+-]/.test(name)) return false;
  if (wallClockFormatters.has(name)) return true;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

function assertSupported(instant: number): void {
  if (!(instant >= FIRST_SUPPORTED_INSTANT && instant <= LAST_SUPPORTED_INSTANT)) {
    throw new RangeError(`instant ${instant} is outside the supported years 1000 to 9999`);
  }
}

function offsetFromIntl(timeZone: string, instant: number): number {
  const text = formatterFor(timeZone).format(instant);
  const fields = WALL_CLOCK_TEXT.exec(text);
  if (fields === null) throw new Error(`unexpected Intl output for ${timeZone}: ${text}`);
  const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
  const wallClock = Date.UTC(+fields[3]!, +fields[1]! - 1, +fields[2]!, +fields[4]!, +fields[5]!, +fields[6]!);
  return wallClock - wholeSecond;
}

/** The zone's UTC offset at an instant, in milliseconds (+05:30 is 19,800,000). */
export function utcOffsetMs(timeZone: string, instant: number): number {
  assertSupported(instant);
  return knownOffset(timeZone, instant) ?? offsetFromIntl(timeZone, instant);
}

/** The local wall clock (see the header) the zone shows at an instant. */
export function wallClockAt(timeZone: string, instant: number): number {
  return instant + utcOffsetMs(timeZone, instant);
}

/** The instant a local wall clock denotes, with `compatible` disambiguation (see the header). */
export function instantOfWallClock(timeZone: string, wallClock: number): number {
  const offsetBefore = utcOffsetMs(timeZone, wallClock - DAY_MS);
  const offsetAfter = utcOffsetMs(timeZone, wallClock + DAY_MS);
  if (offsetBefore === offsetAfter) {
    rememberSteady(timeZone, wallClock - DAY_MS, wallClock + DAY_MS, offsetBefore);
    return wallClock - offsetBefore;
  }

  const readBefore = wallClock - offsetBefore;
  const readAfter = wallClock - offsetAfter;
  const beforeHolds = utcOffsetMs(timeZone, readBefore) === offsetBefore;
  const afterHolds = utcOffsetMs(timeZone, readAfter) === offsetAfter;
  if (beforeHolds && afterHolds) return Math.min(readBefore, readAfter); // repeated: earlier instant
  if (beforeHolds) return readBefore;
  if (afterHolds) return readAfter;
  return readBefore; // skipped: the offset before the gap pushes it forward by the gap's length
}
