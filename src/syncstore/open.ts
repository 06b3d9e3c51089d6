/**
 * Chooses the relational store's adapter: a PostgreSQL server when SYNC_DATABASE_URL is set,
 * else the embedded PostgreSQL under DATA_DIR/sync-pg. Migrates before answering.
 */
import { join } from 'node:path';
import { createSyncStore, type SyncStore } from './store.js';

export interface SyncStoreSettings {
  databaseUrl?: string;
  /** DATA_DIR; with `inMemory`, nothing is written (tests). */
  dataDir: string;
  inMemory?: boolean;
  schema?: string;
  /** The embedded store's kept fresh cluster (pglite-template.ts); unset: initdb for a new DATA_DIR. */
  templateDir?: string;
}

export async function openSyncStore(settings: SyncStoreSettings): Promise<SyncStore> {
  // Only the chosen driver is loaded (the other costs start-up time for nothing).
  const connection = settings.databaseUrl
    ? await (await import('./pg-connection.js')).openPgConnection({
        url: settings.databaseUrl,
        schema: settings.schema,
      })
    : await (await import('./pglite-connection.js')).openPgliteConnection({
        dataDir: settings.inMemory ? undefined : join(settings.dataDir, 'sync-pg'),
        schema: settings.schema,
        templateDir: settings.templateDir,
      });
  const store = createSyncStore(connection);
  await store.migrate();
  return store;
}
