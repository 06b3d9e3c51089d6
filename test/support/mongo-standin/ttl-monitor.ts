/**
 * TTL indexes as a MongoDB server has them, so that an adapter that leaned on them for anything but
 * garbage collection fails here as it would on a server. From the manual (TTL Indexes,
 * https://www.mongodb.com/docs/manual/core/index-ttl/):
 * - "TTL indexes expire documents after the specified number of seconds has passed since the
 *   indexed field value"; if the field is an array, the earliest date in it counts; a document whose
 *   field is missing or holds no date never expires;
 * - deletion is done by a background task that "runs every 60 seconds. As a result, documents may
 *   remain in a collection during the period between the expiration of the document and the running
 *   of the background task" (and longer under load), so an expired document stays readable until
 *   the next round of the monitor;
 * - TTL indexes are single-field (the manual says a compound index ignores `expireAfterSeconds`;
 *   servers since 5.x refuse it with CannotCreateIndex, as the stand-in does, since either way it
 *   would never expire anything) and `_id` does not support them.
 */
import type { Document } from 'bson';
import { CommandError } from './command-error.js';
import type { StandInStorage, StoredCollection } from './storage.js';

/** The server's default `ttlMonitorSleepSecs`. */
export const TTL_MONITOR_INTERVAL_MS = 60_000;
const MAX_EXPIRE_AFTER_SECONDS = 2_147_483_647;

export interface StandInTimers {
  setTimeout(callback: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Checks the `expireAfterSeconds` of an index request; returns it (undefined: not a TTL index). */
export function ttlOption(index: { key: Document; expireAfterSeconds?: unknown }): number | undefined {
  const seconds = index.expireAfterSeconds;
  if (seconds === undefined) return undefined;
  const fields = Object.keys(index.key);
  if (fields.length === 1 && fields[0] === '_id') {
    throw new CommandError(
      'InvalidIndexSpecificationOption',
      "The field 'expireAfterSeconds' is not valid for an _id index specification.",
    );
  }
  if (fields.length !== 1) {
    throw new CommandError(
      'CannotCreateIndex',
      'TTL indexes are single-field indexes, compound indexes do not support TTL.',
    );
  }
  const value = typeof seconds === 'bigint' ? Number(seconds) : seconds;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_EXPIRE_AFTER_SECONDS) {
    throw new CommandError(
      'CannotCreateIndex',
      `TTL index 'expireAfterSeconds' option must be within an acceptable range [0, ${MAX_EXPIRE_AFTER_SECONDS}]`,
    );
  }
  return value;
}

/** The moment the document's TTL clock starts: its date, or the earliest date of an array; none otherwise. */
function indexedDate(doc: Document, path: string): number | undefined {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Document)[part];
  }
  const dates = (Array.isArray(value) ? value : [value]).filter((item): item is Date => item instanceof Date);
  return dates.length === 0 ? undefined : Math.min(...dates.map((date) => date.getTime()));
}

/** Deletes what every TTL index of `collection` has expired at `now`; returns how many documents. */
export function removeExpired(collection: StoredCollection, now: number): number {
  let removed = 0;
  for (const index of collection.indexes) {
    if (index.expireAfterSeconds === undefined) continue;
    const path = Object.keys(index.key)[0]!;
    for (const doc of collection.all()) {
      const since = indexedDate(doc, path);
      if (since !== undefined && since + index.expireAfterSeconds * 1000 < now) {
        collection.remove(doc);
        removed++;
      }
    }
  }
  return removed;
}

/** The background task: one round every `intervalMs` over every collection, on the server's clock. */
export function startTtlMonitor(
  storage: StandInStorage,
  options: { now: () => Date; intervalMs: number; timers: StandInTimers },
): { stop(): void } {
  let handle: unknown;
  let stopped = false;
  const schedule = () => {
    handle = options.timers.setTimeout(() => {
      if (stopped) return;
      const now = options.now().getTime();
      for (const collection of storage.allCollections()) removeExpired(collection, now);
      schedule();
    }, options.intervalMs);
  };
  schedule();
  return {
    stop() {
      stopped = true;
      options.timers.clearTimeout(handle);
    },
  };
}
