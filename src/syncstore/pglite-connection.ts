/**
 * The embedded adapter: PostgreSQL built to WebAssembly (@electric-sql/pglite), so `npm start`
 * needs no server. Its data lives under DATA_DIR/sync-pg (or in memory for tests).
 *
 * PGlite is single-session: a transaction holds the only connection, so statements issued outside
 * it wait (PGlite queues them), which is the isolation we want.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { assertSchemaName, type QueryResult, type SqlConnection, type SqlRunner } from './sql-connection.js';

export interface PgliteOptions {
  /** A directory for the database files; omitted: in memory. */
  dataDir?: string;
  /** The schema the store's tables live in (created if missing); default `public`. */
  schema?: string;
}

type PgliteRunner = Pick<PGlite, 'query'>;

const runnerOver = (db: PgliteRunner): SqlRunner => ({
  async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
    const result = await db.query<Row>(sql, params);
    return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
  },
});

export async function openPgliteConnection(options: PgliteOptions = {}): Promise<SqlConnection> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const db = await PGlite.create(options.dataDir);
  const schema = assertSchemaName(options.schema ?? 'public');
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema};`);
  const runner = runnerOver(db);
  return {
    kind: 'embedded',
    parallelSessions: 1,
    query: runner.query,
    transaction: (work) => db.transaction((tx) => work(runnerOver(tx))),
    close: () => db.close(),
  };
}
