/**
 * On-call health, the math: per person, the pages they received in a range, how many of them came
 * at night (22:00–07:00) in their own zone, and how many hours they were on call. Pure: the route
 * reads the pages (read model `incidentAnalytics`), the schedules and the users.
 *
 * Whose zone: users carry no zone of their own, so a page's night is the night of the schedule
 * through which it reached them (the policy target `schedule`), and UTC for a page that named them
 * directly or through a group. Each person's answer lists the zones used and where they came from.
 *
 * A year over a hundred schedules is a long computation: it waits its turn of the time slice
 * (src/time-slice.ts) before each week of each schedule and every few hundred pages, so it shares the thread
 * with /health and the evaluator instead of holding it for seconds.
 */
import type { PageFact } from '../../projections/incident-analytics.js';
import { compileSchedule } from '../oncall/compiled-schedule.js';
import { renderSpans } from '../oncall/render-schedule.js';
import type { ScheduleDefinition } from '../oncall/schedule-definition.js';
import { wallClockAt } from '../oncall/zone-offsets.js';
import { noPause, type Pause } from '../time-slice.js';

export const NIGHT_STARTS_HOUR = 22;
export const NIGHT_ENDS_HOUR = 7;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type ZoneSource = 'schedule' | 'utc';
export interface ZoneUsed {
  zone: string;
  source: ZoneSource;
}

export interface PersonHealth {
  user_id: string;
  pages_received: number;
  pages_at_night: number;
  zones_used: ZoneUsed[];
  hours_on_call: number;
}

/** Whether an instant falls between 22:00 and 07:00 on the zone's wall clock. */
export function atNight(instant: number, timeZone: string): boolean {
  const wall = wallClockAt(timeZone, instant);
  const hour = Math.floor((((wall % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
  return hour >= NIGHT_STARTS_HOUR || hour < NIGHT_ENDS_HOUR;
}

/** The total length of possibly overlapping intervals (someone on two schedules at once is on call once). */
function coveredMs(intervals: [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [start, stop] of sorted) {
    const from = Math.max(start, end);
    if (stop > from) total += stop - from;
    end = Math.max(end, stop);
  }
  return total;
}

export interface OnCallHealthInput {
  since: Date;
  until: Date;
  /** Stage pages of the incidents that may have paged within the range. */
  pages: PageFact[];
  /** The tenant's schedules: their zones (by id) and definitions. */
  schedules: { id: string; definition: ScheduleDefinition }[];
  isActiveUser: (userId: string) => boolean;
}

const PAGES_PER_PAUSE = 500;
const RENDER_PIECE_MS = 7 * DAY_MS;

/** Per person (paged or on call in the range), ordered by pages received, then night pages, then id. */
export async function onCallHealth(input: OnCallHealthInput, pause: Pause = noPause): Promise<PersonHealth[]> {
  const from = input.since.getTime();
  const to = input.until.getTime();
  const zoneOfSchedule = new Map(input.schedules.map((s) => [s.id, s.definition.timezone]));
  const people = new Map<
    string,
    { pages: number; night: number; zones: Map<string, ZoneUsed>; onCall: [number, number][] }
  >();
  const person = (userId: string) => {
    let entry = people.get(userId);
    if (!entry) people.set(userId, (entry = { pages: 0, night: 0, zones: new Map(), onCall: [] }));
    return entry;
  };
  for (const [index, page] of input.pages.entries()) {
    if (index % PAGES_PER_PAUSE === 0) await pause();
    const at = Date.parse(page.at);
    if (!page.ok || !page.recipient?.startsWith('user:') || at < from || at >= to) continue;
    const scheduleZone = page.viaType === 'schedule' && page.viaId ? zoneOfSchedule.get(page.viaId) : undefined;
    const used: ZoneUsed = scheduleZone ? { zone: scheduleZone, source: 'schedule' } : { zone: 'UTC', source: 'utc' };
    const entry = person(page.recipient.slice('user:'.length));
    entry.pages += 1;
    if (atNight(at, used.zone)) entry.night += 1;
    entry.zones.set(`${used.source}:${used.zone}`, used);
  }
  for (const schedule of input.schedules) {
    // A year of a large schedule renders in tens of milliseconds: a week at a time, each its turn.
    const compiled = compileSchedule(schedule.definition, input.isActiveUser);
    for (let start = from; start < to; start += RENDER_PIECE_MS) {
      await pause();
      // A stretch cut at a piece's edge is two touching intervals; coveredMs adds them up as one.
      for (const span of renderSpans(compiled, start, Math.min(to, start + RENDER_PIECE_MS)))
        person(span.userId).onCall.push([span.start, span.end]);
    }
  }
  return [...people.entries()]
    .map(([userId, entry]) => ({
      user_id: userId,
      pages_received: entry.pages,
      pages_at_night: entry.night,
      zones_used: [...entry.zones.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0)),
      hours_on_call: Math.round((coveredMs(entry.onCall) / HOUR_MS) * 100) / 100,
    }))
    .sort(
      (a, b) =>
        b.pages_received - a.pages_received || b.pages_at_night - a.pages_at_night || (a.user_id < b.user_id ? -1 : 1),
    );
}
