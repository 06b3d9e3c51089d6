/**
 * The instants the API takes, in query parameters and bodies alike (`at`, `since`, `until`, `from`,
 * `to`, `as_of`, `active_at`, `starts_at`, `ends_at`): ISO 8601 with `Z` or an offset, from
 * 1970-01-01T00:00:00Z up to (not including) 9000-01-01T00:00:00Z. One schema, so every route refuses
 * the same instants with a 400 naming the field.
 *
 * Why this range: the zone arithmetic (src/oncall/zone-offsets.ts) answers years 1000 to 9999 only
 * (where `Intl` prints a four-digit year), and a date outside it threw a RangeError deep in a
 * schedule, a preview or the analytics: a 500. The work reaches well past the instant asked: an
 * escalation preview lists up to 5 cycles of 20 stages a week apart repeated weekly (about two
 * years), a schedule renders up to 90 days, the analytics 366. So the range ends in 9000, a
 * thousand years before the zone arithmetic does, leaving every bound above room to grow. Nothing
 * the platform records predates the Unix epoch, so it starts in 1970. (JavaScript's Date itself
 * reaches years -271821 to 275760, far beyond both.)
 */
import { z } from 'zod';

export const FIRST_API_INSTANT = '1970-01-01T00:00:00Z';
/** Exclusive: the last instant taken is 8999-12-31T23:59:59.999Z. */
export const END_API_INSTANT = '9000-01-01T00:00:00Z';

const first = Date.parse(FIRST_API_INSTANT);
const end = Date.parse(END_API_INSTANT);

export const SUPPORTED_INSTANTS = `from ${FIRST_API_INSTANT} up to (not including) ${END_API_INSTANT}`;

/** Whether an instant (epoch milliseconds) lies in the range the API takes. */
export const isSupportedInstant = (instant: number) => instant >= first && instant < end;

/** An ISO 8601 instant with `Z` or an offset, in the supported range (checked only once the text is one: one error per field). */
export const apiInstant = z.iso
  .datetime({ offset: true, abort: true })
  .refine((text) => isSupportedInstant(Date.parse(text)), `must be an instant ${SUPPORTED_INSTANTS}`);
