/**
 * Idempotent batched upserts: one `INSERT … SELECT FROM unnest(…) ON CONFLICT (natural key) DO
 * UPDATE` per batch. Column arrays instead of one placeholder per value keep the statement the
 * same for every batch size (no 65,535-parameter ceiling, one plan) and are PostgreSQL's fastest
 * multi-row path short of COPY; the same SQL runs on both adapters.
 *
 * Rows repeated within one batch (same key) keep the last: ON CONFLICT may touch a row once per
 * statement. Each batch is its own transaction, so a crash mid-run keeps whole batches only and a
 * re-run rewrites them in place: no duplicates, no gaps.
 */
import type { SqlRunner } from './sql-connection.js';
import { SYNC_TABLES, type SyncTableName, type TableDefinition } from './tables.js';

export type SyncRow = Record<string, unknown>;

/** Rows per statement: large enough to amortise the round trip, small enough to stream. */
export const DEFAULT_BATCH_SIZE = 5000;

const statements = new Map<SyncTableName, string>();

export function upsertStatement(table: TableDefinition): string {
  const cached = statements.get(table.name);
  if (cached) return cached;
  const names = table.columns.map((column) => column.name);
  const arrays = table.columns.map((column, index) => `$${index + 1}::${column.type}[]`);
  const updates = names.filter((name) => !table.key.includes(name)).map((name) => `${name} = EXCLUDED.${name}`);
  const sql =
    `INSERT INTO ${table.name} (${names.join(', ')}) SELECT * FROM unnest(${arrays.join(', ')}) ` +
    `ON CONFLICT (${table.key.join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
  statements.set(table.name, sql);
  return sql;
}

const keyOf = (table: TableDefinition, row: SyncRow) => JSON.stringify(table.key.map((name) => normalise(row[name])));

function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value ?? null;
}

/** One column array per column, last row per key winning. */
export function columnArrays(table: TableDefinition, rows: SyncRow[]): unknown[][] {
  const unique = new Map<string, SyncRow>();
  for (const row of rows) {
    const key = keyOf(table, row);
    unique.delete(key);
    unique.set(key, row);
  }
  const kept = [...unique.values()];
  return table.columns.map((column) => kept.map((row) => normalise(row[column.name])));
}

/** Upserts one batch; answers the rows written (inserted or updated). */
export async function upsertBatch(runner: SqlRunner, tableName: SyncTableName, rows: SyncRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const table = SYNC_TABLES[tableName];
  for (const name of table.key) {
    const missing = rows.findIndex((row) => row[name] === undefined || row[name] === null);
    if (missing >= 0) throw new Error(`${tableName}: row ${missing} has no ${name} (part of the key)`);
  }
  const result = await runner.query(upsertStatement(table), columnArrays(table, rows));
  return result.affectedRows;
}
