/**
 * The relational store port: where sync jobs write, and what /health asks. One implementation
 * over any SqlConnection, so the embedded and the server adapter run the same SQL.
 */
import { migrate } from './migrations.js';
import type { SqlConnection } from './sql-connection.js';
import type { SyncTableName } from './tables.js';
import { DEFAULT_BATCH_SIZE, upsertBatch, type SyncRow } from './upsert.js';

export interface SyncStore {
  readonly kind: SqlConnection['kind'];
  /** Applies pending migrations; answers the schema version. */
  migrate(): Promise<number>;
  /**
   * Upserts rows in batches of `batchSize`, each batch committed on its own; answers rows written.
   * Accepts an async iterable so a large extract streams with flat memory.
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
    async upsert(table, rows, batchSize = DEFAULT_BATCH_SIZE) {
      let written = 0;
      let batch: SyncRow[] = [];
      const flush = async () => {
        const rowsOfBatch = batch;
        batch = [];
        written += await connection.transaction((tx) => upsertBatch(tx, table, rowsOfBatch));
      };
      for await (const row of rows) {
        batch.push(row);
        if (batch.length >= batchSize) await flush();
      }
      if (batch.length > 0) await flush();
      return written;
    },
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
