/**
 * A SyncStore opened on first use: the embedded PostgreSQL takes seconds to start (WebAssembly),
 * so a platform that never syncs (most tests, a one-off instance) never pays for it. A failed
 * open is retried on the next use, so a server that comes up later is picked up.
 */
import type { SyncStore } from './store.js';

export function lazySyncStore(kind: SyncStore['kind'], open: () => Promise<SyncStore>): SyncStore & { opened(): boolean } {
  let pending: Promise<SyncStore> | undefined;
  let closed = false;
  const store = () => {
    if (closed) return Promise.reject(new Error('the sync store is closed'));
    pending ??= open().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return {
    kind,
    opened: () => pending !== undefined,
    migrate: async () => (await store()).migrate(),
    upsert: async (table, rows, batchSize) => (await store()).upsert(table, rows, batchSize),
    count: async (table, envId) => (await store()).count(table, envId),
    query: async (sql, params) => (await store()).query(sql, params),
    ping: async () => (await store()).ping(),
    async close() {
      closed = true;
      const opening = pending;
      pending = undefined;
      if (opening) await (await opening.catch(() => undefined))?.close();
    },
  };
}
