/**
 * The relational store port: where sync jobs write, and what /health asks. One implementation
 * over any SqlConnection, so the embedded and the server adapter run the same SQL.
 */
import { migrate } from './migrations.js';
import type { SqlConnection } from './sql-connection.js';
import type { SyncTableName } from './tables.js';
import { writeInBatches } from './batch-writer.js';
import { DEFAULT_BATCH_SIZE, type SyncRow } from './upsert.js';

export interface SyncStore {
  readonly kind: SqlConnection['kind'];
  /** Applies pending migrations; answers the schema version. */
  migrate(): Promise<number>;
  /**
   * Upserts rows in batches of `batchSize`, each batch committed on its own; answers rows written.
   * Accepts an async iterable so a large extract streams with flat memory. Batches go out over
   * the connection's parallel sessions (batch-writer.ts); a later row with the same key still wins.
   */
  upsert(table: SyncTableName, rows: Iterable<SyncRow> | AsyncIterable<SyncRow>, batchSize?: number): Promise<number>;
  count(table: SyncTableName, envId?: string): Promise<number>;
  /** Raw read access for tests, the benchmark and diagnostics. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Resolves when the database answers; rejects with the reason otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createSyncStore(connection: SqlConnection): SyncStore {
  return {
    kind: connection.kind,
    migrate: () => migrate(connection),
    upsert: (table, rows, batchSize = DEFAULT_BATCH_SIZE) =>
      writeInBatches(connection, table, rows, { batchSize, parallel: connection.parallelSessions }),
    async count(table, envId) {
      const result = envId
        ? await connection.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE env_id = $1`, [envId])
        : await connection.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      return Number(result.rows[0]?.n ?? 0);
    },
    async query(sql, params) {
      return (await connection.query(sql, params)).rows as never;
    },
    async ping() {
      await connection.query('SELECT 1');
    },
    close: () => connection.close(),
  };
}
