/**
 * When a job runs: on a grid of its interval counted from midnight in SYNC_TIMEZONE (every 300 s
 * = :00, :05, … local time). Pure arithmetic on the clock, so every instance, the status endpoint
 * and the scheduler agree on `next_run` without sharing state.
 */
import { instantOfWallClock, wallClockAt } from '../../oncall/zone-offsets.js';
import type { SyncJobId } from '../../events/sync-job.js';

const DAY_MS = 86_400_000;

/** Defaults when SYNC_INTERVALS does not name a job: fast-moving sources often, snapshots hourly. */
export const DEFAULT_INTERVAL_SECONDS: Record<SyncJobId, number> = {
  query_history: 300,
  table_storage: 3600,
  cluster_metrics: 300,
  wlm_queue_stats: 300,
  alert_events: 900,
};

export const intervalOf = (intervals: Partial<Record<string, number>>, jobId: SyncJobId) =>
  intervals[jobId] ?? DEFAULT_INTERVAL_SECONDS[jobId];

/** The first grid instant strictly after `after`. */
export function nextRunAfter(after: Date, intervalSeconds: number, timeZone: string): Date {
  const wall = wallClockAt(timeZone, after.getTime());
  const midnight = Math.floor(wall / DAY_MS) * DAY_MS;
  const step = intervalSeconds * 1000;
  const nextWall = Math.min(midnight + (Math.floor((wall - midnight) / step) + 1) * step, midnight + DAY_MS);
  const next = instantOfWallClock(timeZone, nextWall);
  // A wall-clock time skipped by a DST change maps back before `after`: take the next slot.
  return next > after.getTime()
    ? new Date(next)
    : nextRunAfter(new Date(after.getTime() + step), intervalSeconds, timeZone);
}
