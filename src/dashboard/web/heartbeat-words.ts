/** How the Heartbeats page says things: a status as words, a duration in minutes, hours or days. Pure. */
import type { Heartbeat } from './api/types';

export const STATUS_WORDS: Record<Heartbeat['status'], string> = {
  new: 'Waiting for the first ping',
  up: 'Up',
  late: 'Late (within the grace)',
  down: 'Down: missed, paged',
  failed: 'Failed run: paged',
  paused: 'Paused',
};

/** 3600 → "1 h", 5400 → "1 h 30 min", 90 → "1 min 30 s", 0 → "none". */
export function durationWords(seconds: number): string {
  if (seconds === 0) return 'none';
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${unit}`);
    rest -= count * size;
  }
  return parts.join(' ');
}

/** Pinging ones that are in trouble first, then by name. */
export const heartbeatOrder = (a: Heartbeat, b: Heartbeat) => {
  const rank = (h: Heartbeat) => (h.status === 'down' || h.status === 'failed' ? 0 : h.status === 'late' ? 1 : 2);
  return rank(a) - rank(b) || a.name.localeCompare(b.name);
};
