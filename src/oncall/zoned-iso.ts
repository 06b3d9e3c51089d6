/**
 * ISO 8601 text in and out of a schedule's zone.
 *
 * Out: an instant as the zone's wall clock with the zone's offset, seconds always shown
 * (`2026-03-08T03:00:00-04:00`, `2026-01-15T09:00:00+05:30`), milliseconds only when not zero so
 * whole-second handoffs read cleanly and nothing is lost otherwise. UTC reads `+00:00`, not `Z`,
 * so every answer has the same shape.
 *
 * In: schedule times are parsed strictly. A time with `Z` or an offset is that instant; a time
 * without one is a wall clock in the schedule's zone (the spec says the zone interprets rotation
 * start times), resolved with `compatible` disambiguation; a date alone is local midnight.
 */
import { instantOfWallClock, wallClockAt } from './zone-offsets.js';

const SCHEDULE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `+05:30`, `-04:00`, `+00:00`; the seconds of pre-1900 local mean times as `+00:19:32`. */
export function formatUtcOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const totalSeconds = Math.round(Math.abs(offsetMs) / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${sign}${pad(hours)}:${pad(minutes)}${seconds === 0 ? '' : `:${pad(seconds)}`}`;
}

/** An instant as ISO 8601 in the zone, with the zone's offset at that instant. */
export function formatInZone(timeZone: string, instant: number): string {
  const wallClock = wallClockAt(timeZone, instant);
  const local = new Date(wallClock);
  const millis = local.getUTCMilliseconds();
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${millis === 0 ? '' : `.${pad(millis, 3)}`}${formatUtcOffset(wallClock - instant)}`
  );
}

function parseOffsetMs(text: string): number {
  if (text === 'Z' || text === 'z') return 0;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) throw new RangeError(`offset out of range: ${text}`);
  return (text.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/**
 * The instant an ISO 8601 schedule time denotes (see the header for times without an offset).
 * Throws RangeError on anything that is not a real calendar date and time.
 */
export function parseScheduleTime(text: string, timeZone: string): number {
  const fields = typeof text === 'string' ? SCHEDULE_TIME.exec(text.trim()) : null;
  if (fields === null) throw new RangeError(`not an ISO 8601 date-time: ${String(text)}`);
  const [year, month, day, hour, minute, second] = fields.slice(1, 7).map((field) => Number(field ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Math.floor(Number(`0.${fields[7] ?? '0'}`) * 1000);
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(wallClock);
  const real =
    year >= 1000 &&
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  if (!real) throw new RangeError(`not a real date and time: ${text}`);
  const offset = fields[8];
  return offset === undefined ? instantOfWallClock(timeZone, wallClock) : wallClock - parseOffsetMs(offset);
}
