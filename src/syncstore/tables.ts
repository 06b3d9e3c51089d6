/**
 * The tables analysts read: one per sync job, each keyed by its source's natural key so a re-run
 * upserts instead of duplicating. The column list is what the upsert writes; the migrations
 * (migrations.ts) create exactly these columns, which the contract test checks.
 */

export type ColumnType = 'text' | 'bigint' | 'integer' | 'double precision' | 'timestamptz';

export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  /** What the column means, for the README's table documentation. */
  meaning: string;
}

export interface TableDefinition {
  name: SyncTableName;
  meaning: string;
  columns: ColumnDefinition[];
  /** The natural key: the primary key and the ON CONFLICT target. */
  key: string[];
}

export const SYNC_TABLE_NAMES = [
  'query_history',
  'table_storage',
  'cluster_metrics',
  'wlm_queue_stats',
  'alert_events',
] as const;
export type SyncTableName = (typeof SYNC_TABLE_NAMES)[number];

const envColumns: ColumnDefinition[] = [
  { name: 'env_id', type: 'text', meaning: 'the environment (tenant warehouse) the row came from' },
  { name: 'cluster_id', type: 'text', meaning: 'the cluster or serverless workgroup' },
];
const syncedAt: ColumnDefinition = {
  name: 'synced_at',
  type: 'timestamptz',
  meaning: 'when the sync last wrote this row',
};

export const SYNC_TABLES: Record<SyncTableName, TableDefinition> = {
  query_history: {
    name: 'query_history',
    meaning: 'finished queries, copied incrementally by end time',
    key: ['env_id', 'cluster_id', 'query_id'],
    columns: [
      ...envColumns,
      { name: 'query_id', type: 'bigint', meaning: 'the warehouse query id' },
      { name: 'user_name', type: 'text', meaning: 'who ran it' },
      { name: 'database_name', type: 'text', meaning: 'the database it ran in' },
      { name: 'queue', type: 'text', meaning: 'the WLM queue (service class) it ran in' },
      { name: 'start_time', type: 'timestamptz', meaning: 'when it started executing' },
      { name: 'end_time', type: 'timestamptz', meaning: 'when it finished (the high-water mark)' },
      { name: 'elapsed_ms', type: 'bigint', meaning: 'execution time in milliseconds' },
      { name: 'rows_returned', type: 'bigint', meaning: 'rows it returned' },
      { name: 'spilled_bytes', type: 'bigint', meaning: 'bytes spilled to disk' },
      { name: 'query_text', type: 'text', meaning: 'the SQL text (first 4000 characters)' },
      syncedAt,
    ],
  },
  table_storage: {
    name: 'table_storage',
    meaning: 'one row per table: its latest size and health snapshot',
    key: ['env_id', 'cluster_id', 'schema_name', 'table_name'],
    columns: [
      ...envColumns,
      { name: 'schema_name', type: 'text', meaning: 'the schema' },
      { name: 'table_name', type: 'text', meaning: 'the table' },
      { name: 'size_mb', type: 'bigint', meaning: 'size in 1 MB blocks' },
      { name: 'tbl_rows', type: 'bigint', meaning: 'rows, including ghost rows' },
      { name: 'unsorted_pct', type: 'double precision', meaning: 'percentage of unsorted rows' },
      {
        name: 'stats_off_pct',
        type: 'double precision',
        meaning: 'how stale the planner statistics are (0 = current)',
      },
      { name: 'skew_rows', type: 'double precision', meaning: 'rows on the fullest slice / rows on the emptiest' },
      { name: 'sampled_at', type: 'timestamptz', meaning: 'when the snapshot was read' },
      syncedAt,
    ],
  },
  cluster_metrics: {
    name: 'cluster_metrics',
    meaning: 'the seven alert metrics, one sample per metric per run',
    key: ['env_id', 'cluster_id', 'metric', 'sampled_at'],
    columns: [
      ...envColumns,
      { name: 'metric', type: 'text', meaning: 'the metric name (as in alert rules)' },
      { name: 'sampled_at', type: 'timestamptz', meaning: 'when it was sampled (the high-water mark)' },
      { name: 'value', type: 'double precision', meaning: 'the value, in the metric catalogue unit' },
      syncedAt,
    ],
  },
  wlm_queue_stats: {
    name: 'wlm_queue_stats',
    meaning: 'per WLM queue: queries waiting and executing, and their wait time, per sample',
    key: ['env_id', 'cluster_id', 'queue', 'sampled_at'],
    columns: [
      ...envColumns,
      { name: 'queue', type: 'text', meaning: 'the WLM queue (service class name)' },
      { name: 'sampled_at', type: 'timestamptz', meaning: 'when it was sampled' },
      { name: 'waiting', type: 'integer', meaning: 'queries queued' },
      { name: 'executing', type: 'integer', meaning: 'queries running' },
      { name: 'avg_wait_ms', type: 'bigint', meaning: 'mean queue wait of the waiting queries, in milliseconds' },
      syncedAt,
    ],
  },
  alert_events: {
    name: 'alert_events',
    meaning: "the warehouse's own alert log (STL_ALERT_EVENT_LOG)",
    key: ['env_id', 'cluster_id', 'query_id', 'event', 'event_time'],
    columns: [
      ...envColumns,
      { name: 'query_id', type: 'bigint', meaning: 'the query that raised it' },
      { name: 'event', type: 'text', meaning: 'what the planner or executor noticed' },
      { name: 'event_time', type: 'timestamptz', meaning: 'when (the high-water mark)' },
      { name: 'schema_name', type: 'text', meaning: 'the schema of the table concerned' },
      { name: 'table_name', type: 'text', meaning: 'the table concerned' },
      { name: 'solution', type: 'text', meaning: "Redshift's suggested remedy" },
      syncedAt,
    ],
  },
};
