/**
 * A SyncStore opened on first use: the embedded PostgreSQL takes seconds to start (WebAssembly),
 * so a platform that never syncs (most tests, a one-off instance) never pays for it. A failed
 * open is retried on the next use, so a server that comes up later is picked up.
 */
import { TimedOut, withTimeout } from '../with-timeout.js';
import type { SyncStore } from './store.js';

export type LazyState = 'not_opened' | 'opening' | 'open' | 'failed';

export interface LazySyncStore extends SyncStore {
  opened(): boolean;
  state(): LazyState;
  /** Why the last open failed (state `failed`); the next use tries again. */
  lastFailure(): unknown;
}

export function lazySyncStore(
  kind: SyncStore['kind'],
  open: () => Promise<SyncStore>,
  closeWaitMs = 2000,
): LazySyncStore {
  let pending: Promise<SyncStore> | undefined;
  let ready = false;
  let failure: unknown;
  let closed = false;
  const store = () => {
    if (closed) return Promise.reject(new Error('the sync store is closed'));
    pending ??= open().then(
      (opened) => {
        ready = true;
        failure = undefined;
        return opened;
      },
      (error: unknown) => {
        pending = undefined;
        failure = error;
        throw error;
      },
    );
    return pending;
  };
  return {
    kind,
    opened: () => pending !== undefined,
    state: () => (ready && pending ? 'open' : pending ? 'opening' : failure !== undefined ? 'failed' : 'not_opened'),
    lastFailure: () => failure,
    migrate: async () => (await store()).migrate(),
    upsert: async (table, rows, batchSize) => (await store()).upsert(table, rows, batchSize),
    count: async (table, envId) => (await store()).count(table, envId),
    query: async (sql, params) => (await store()).query(sql, params),
    ping: async () => (await store()).ping(),
    async close() {
      closed = true;
      ready = false;
      const opening = pending;
      pending = undefined;
      if (!opening) return;
      // An open still under way (the embedded store compiling at start) is not waited for past a
      // bound: a stop must finish within the 10 s `docker stop` allows. It is closed when it opens,
      // if the process is still there; nothing was written through it yet.
      let opened: SyncStore | undefined;
      try {
        opened = await withTimeout(opening, closeWaitMs);
      } catch (error) {
        if (error instanceof TimedOut) void opening.then((store) => store.close()).catch(() => undefined);
        return;
      }
      await opened.close();
    },
  };
}
