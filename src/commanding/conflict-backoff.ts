/**
 * How long a command waits before it re-reads and retries an append another writer got to first.
 * "Full jitter": a random wait below a cap that doubles with each attempt, so writers that collided
 * once spread out instead of colliding again in lockstep (eight people adding notes to the incident
 * they all look at). The cap stays small: the waits are milliseconds, and there are few of them.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

/** Waits before retry number `attempt` (0 for the first retry). */
export type ConflictBackoff = (attempt: number) => Promise<void>;

export interface JitteredBackoffOptions {
  /** The cap of the first wait; it doubles per attempt up to `maxMs`. */
  baseMs?: number;
  maxMs?: number;
  /** In [0, 1): injectable so tests are deterministic. */
  random?: () => number;
  /** Injectable so tests need no real time. */
  sleep?: (ms: number) => Promise<void>;
}

export function jitteredBackoff(options: JitteredBackoffOptions = {}): ConflictBackoff {
  const { baseMs = 2, maxMs = 50, random = Math.random, sleep = (ms: number) => sleepFor(ms) } = options;
  return (attempt) => sleep(Math.floor(random() * Math.min(maxMs, baseMs * 2 ** attempt)));
}
