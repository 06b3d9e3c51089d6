/**
 * The one thing the relational store needs from a PostgreSQL driver: run a statement with
 * positional parameters, and run several in one transaction. Two adapters implement it over the
 * same SQL: `pglite-connection.ts` (embedded PostgreSQL in WebAssembly, the default) and
 * `pg-connection.ts` (a PostgreSQL server through `pg`, when SYNC_DATABASE_URL is set).
 */

export interface QueryResult<Row> {
  rows: Row[];
  /** Rows inserted, updated or deleted by the statement (0 for a SELECT). */
  affectedRows: number;
}

export interface SqlRunner {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

export interface SqlConnection extends SqlRunner {
  /** Runs `work` in one transaction on one session: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T>;
  /** `embedded` or `postgresql`, for /health and logs. */
  readonly kind: 'embedded' | 'postgresql';
  /** Sessions that can run transactions at once (PGlite has one; a pool has several). */
  readonly parallelSessions: number;
  close(): Promise<void>;
}

/** A schema name we may interpolate into SQL: letters, digits, underscores. */
export function assertSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  return schema;
}
