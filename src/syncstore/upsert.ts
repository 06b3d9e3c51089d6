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
import { arrayLiteral } from './array-literal.js';
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

// Key parts joined by a control character no warehouse identifier holds; typed so 1 and "1" differ.
const keyOf = (table: TableDefinition, row: SyncRow) => {
  let key = '';
  for (const name of table.key) {
    const value = normalise(row[name]);
    key += `${typeof value}:${String(value)}\u0001`;
  }
  return key;
};

/** One form per value for key comparison: a Date and its ISO string are the same key. */
function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value ?? null;
}

/** The rows of a batch by natural key, last row per key winning. */
function lastRowPerKey(table: TableDefinition, rows: SyncRow[]): Map<string, SyncRow> {
  const unique = new Map<string, SyncRow>();
  for (const row of rows) {
    const key = keyOf(table, row);
    unique.delete(key);
    unique.set(key, row);
  }
  return unique;
}

/** A batch ready to send: its statement parameters, one array literal per column. */
export interface EncodedBatch {
  table: SyncTableName;
  params: string[];
  /** The natural keys the batch writes, to keep batches sharing a key from running at once. */
  keys: ReadonlySet<string>;
}

/** Checks the keys and encodes one batch; throws (writing nothing) on a row without its key. */
export function encodeBatch(tableName: SyncTableName, rows: SyncRow[]): EncodedBatch {
  const table = SYNC_TABLES[tableName];
  for (const name of table.key) {
    const missing = rows.findIndex((row) => row[name] === undefined || row[name] === null);
    if (missing >= 0) throw new Error(`${tableName}: row ${missing} has no ${name} (part of the key)`);
  }
  const unique = lastRowPerKey(table, rows);
  const kept = [...unique.values()];
  // arrayLiteral writes dates, bigints and missing values itself.
  const params = table.columns.map((column) =>
    arrayLiteral(
      kept.map((row) => row[column.name]),
      column.type,
    ),
  );
  return { table: tableName, params, keys: new Set(unique.keys()) };
}

/** Writes one encoded batch; answers the rows written (inserted or updated). */
export async function writeBatch(runner: SqlRunner, batch: EncodedBatch): Promise<number> {
  const result = await runner.query(upsertStatement(SYNC_TABLES[batch.table]), batch.params);
  return result.affectedRows;
}
