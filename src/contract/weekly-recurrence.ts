/**
 * The days of a weekly recurrence (a maintenance window's): their names in Date#getUTCDay order,
 * which the window's timing (src/events/maintenance-window-timing.ts) reads, and the shortest gap
 * between two start days, which a window's body must leave (src/contract/bodies/maintenance-windows.ts).
 */

/** Date#getUTCDay order of the weekday names. */
export const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * The fewest whole days from one start day of a weekly recurrence to the next (7 for one day a
 * week). An occurrence must be shorter than this, in minutes, to end before the next one starts:
 * a recurrence whose occurrences touch or overlap would silence its rules for good.
 */
export function shortestStartGapDays(days: readonly string[]): number {
  const order = [...new Set(days.map((day) => DAY_NAMES.indexOf(day as (typeof DAY_NAMES)[number])))].sort(
    (a, b) => a - b,
  );
  if (order.length === 0) return 7;
  return Math.min(...order.map((day, i) => (order[(i + 1) % order.length]! - day + 7) % 7 || 7));
}
