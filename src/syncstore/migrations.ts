/**
 * Versioned migrations, applied in order on start. A migration is never edited once released:
 * change the schema with a new one. Applied versions are recorded in `schema_migrations`; two
 * processes starting at once serialise on an advisory lock, so each migration runs once.
 */
import type { SqlConnection } from './sql-connection.js';

export interface Migration {
  version: number;
  name: string;
  sql: string[];
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'sync tables',
    sql: [
      `CREATE TABLE query_history (
        env_id text NOT NULL, cluster_id text NOT NULL, query_id bigint NOT NULL,
        user_name text, database_name text, queue text, start_time timestamptz, end_time timestamptz,
        elapsed_ms bigint, rows_returned bigint, spilled_bytes bigint, query_text text,
        synced_at timestamptz NOT NULL,
        PRIMARY KEY (env_id, cluster_id, query_id))`,
      `CREATE INDEX query_history_end_time ON query_history (env_id, end_time)`,
      `CREATE TABLE table_storage (
        env_id text NOT NULL, cluster_id text NOT NULL, schema_name text NOT NULL, table_name text NOT NULL,
        size_mb bigint, tbl_rows bigint, unsorted_pct double precision, stats_off_pct double precision,
        skew_rows double precision, sampled_at timestamptz, synced_at timestamptz NOT NULL,
        PRIMARY KEY (env_id, cluster_id, schema_name, table_name))`,
      `CREATE TABLE cluster_metrics (
        env_id text NOT NULL, cluster_id text NOT NULL, metric text NOT NULL, sampled_at timestamptz NOT NULL,
        value double precision, synced_at timestamptz NOT NULL,
        PRIMARY KEY (env_id, cluster_id, metric, sampled_at))`,
      `CREATE TABLE wlm_queue_stats (
        env_id text NOT NULL, cluster_id text NOT NULL, queue text NOT NULL, sampled_at timestamptz NOT NULL,
        waiting integer, executing integer, avg_wait_ms bigint, synced_at timestamptz NOT NULL,
        PRIMARY KEY (env_id, cluster_id, queue, sampled_at))`,
      `CREATE TABLE alert_events (
        env_id text NOT NULL, cluster_id text NOT NULL, query_id bigint NOT NULL, event text NOT NULL,
        event_time timestamptz NOT NULL, schema_name text, table_name text, solution text,
        synced_at timestamptz NOT NULL,
        PRIMARY KEY (env_id, cluster_id, query_id, event, event_time))`,
    ],
  },
];

/** An arbitrary constant naming "the sync store's migrations" for pg_advisory_xact_lock. */
const MIGRATION_LOCK_KEY = 7_311_015;

/** Applies every migration not yet recorded; answers the schema version now in place. */
export async function migrate(connection: SqlConnection, migrations: Migration[] = MIGRATIONS): Promise<number> {
  return connection.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(applied.rows.map((row) => Number(row.version)));
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.sql) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.add(migration.version);
    }
    return Math.max(0, ...done);
  });
}
