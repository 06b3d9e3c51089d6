/**
 * The embedded adapter: PostgreSQL built to WebAssembly (@electric-sql/pglite), so `npm start`
 * needs no server. Its data lives under DATA_DIR/sync-pg (or in memory for tests).
 *
 * PGlite is single-session: a transaction holds the only connection, so statements issued outside
 * it wait (PGlite queues them), which is the isolation we want.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { forgetTemplate, holdsCluster, keepTemplate, readTemplate } from './pglite-template.js';
import { assertSchemaName, type QueryResult, type SqlConnection, type SqlRunner } from './sql-connection.js';

export interface PgliteOptions {
  /** A directory for the database files; omitted: in memory. */
  dataDir?: string;
  /** The schema the store's tables live in (created if missing); default `public`. */
  schema?: string;
  /**
   * Where a fresh cluster is kept as a tarball (pglite-template.ts): a new database loads it
   * instead of running initdb, and the first one to run initdb keeps it. Omitted: initdb every time.
   */
  templateDir?: string;
}

type PgliteRunner = Pick<PGlite, 'query'>;

const runnerOver = (db: PgliteRunner): SqlRunner => ({
  async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
    const result = await db.query<Row>(sql, params);
    return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
  },
});

/** A new cluster from the kept template when there is one, else initdb (and keep it for the next). */
async function createDatabase({ dataDir, templateDir }: PgliteOptions): Promise<PGlite> {
  if (templateDir === undefined || holdsCluster(dataDir)) return PGlite.create(dataDir);
  const template = readTemplate(templateDir);
  if (template) {
    try {
      return await PGlite.create(dataDir, { loadDataDir: template });
    } catch (error) {
      // A damaged template: forget it, and run initdb where nothing was left behind.
      forgetTemplate(templateDir);
      if (holdsCluster(dataDir)) throw error;
    }
  }
  const db = await PGlite.create(dataDir);
  await keepTemplate(templateDir, db);
  return db;
}

export async function openPgliteConnection(options: PgliteOptions = {}): Promise<SqlConnection> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const db = await createDatabase(options);
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
