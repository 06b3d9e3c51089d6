/**
 * When a heartbeat is due, and where it stands: pure math over its last ping (or its creation, or
 * the moment it was last enabled, when it never pinged since), its interval and its grace.
 *
 *   up      pinged, next ping not late yet          new     never pinged, first ping not late yet
 *   late    past the interval, within the grace     down    past interval + grace: pages
 *   failed  the last ping said `status=fail`: paged at once   paused  disabled: watches nothing
 *
 * A heartbeat pages once it is `down` (the checker) or `failed` (the ping itself); `late` never
 * pages, it is what the grace is for.
 */
import type { HeartbeatStatusWord as HeartbeatStatus } from '../contract/heartbeats.js';

export type { HeartbeatStatus };

export interface HeartbeatTiming {
  intervalSeconds: number;
  graceSeconds: number;
  enabled: boolean;
  /** The instant the clock runs from: the last ping, else when it was created or last enabled. */
  since: string;
  lastPingStatus: 'success' | 'fail' | null;
}

/** The timing of a stored heartbeat (a deleted one watches nothing, like a disabled one). */
export const timingOfHeartbeat = (doc: {
  intervalSeconds: number;
  graceSeconds: number;
  enabled: boolean;
  deleted?: boolean;
  since: string;
  lastPingStatus: 'success' | 'fail' | null;
}): HeartbeatTiming => ({
  intervalSeconds: doc.intervalSeconds,
  graceSeconds: doc.graceSeconds,
  enabled: doc.enabled && !doc.deleted,
  since: doc.since,
  lastPingStatus: doc.lastPingStatus,
});

/** The last instant before a missed ping pages: since + interval + grace (ms since the epoch). */
export const dueAtMs = (timing: Pick<HeartbeatTiming, 'since' | 'intervalSeconds' | 'graceSeconds'>): number =>
  Date.parse(timing.since) + (timing.intervalSeconds + timing.graceSeconds) * 1000;

/** When the next ping is expected (no grace). */
export const expectedAtMs = (timing: Pick<HeartbeatTiming, 'since' | 'intervalSeconds'>): number =>
  Date.parse(timing.since) + timing.intervalSeconds * 1000;

/** Overdue at `nowMs`: enabled and interval + grace have passed since. Exactly at the due instant is overdue. */
export const isOverdue = (timing: HeartbeatTiming, nowMs: number): boolean =>
  timing.enabled && dueAtMs(timing) <= nowMs;

export function heartbeatStatus(timing: HeartbeatTiming, nowMs: number): HeartbeatStatus {
  if (!timing.enabled) return 'paused';
  if (isOverdue(timing, nowMs)) return 'down';
  if (timing.lastPingStatus === 'fail') return 'failed';
  if (expectedAtMs(timing) <= nowMs) return 'late';
  return timing.lastPingStatus === null ? 'new' : 'up';
}

/** A duration as people say it: "1 h", "1 h 30 min", "90 s", "2 d". */
export function humanDuration(seconds: number): string {
  if (seconds === 0) return '0 s';
  const parts: string[] = [];
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  let rest = seconds;
  for (const [size, unit] of units) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${unit}`);
    rest -= count * size;
  }
  return parts.join(' ');
}

/** The missed incident's detail: what was expected and since when nothing came. */
export function missedDetail(timing: HeartbeatTiming & { neverPinged: boolean }): string {
  const what = timing.neverPinged ? `no ping since it was set up at ${timing.since}` : `no ping since ${timing.since}`;
  return `${what}; expected every ${humanDuration(timing.intervalSeconds)} (grace ${humanDuration(timing.graceSeconds)})`;
}
