/**
 * What the data-sync jobs read from a warehouse (part of the WarehouseGateway port): finished
 * queries and alert-log entries over a time window (incremental), and point-in-time snapshots of
 * table statistics and WLM queues. Times are ISO 8601 with milliseconds.
 */

/** [from, to): a window over the source's own timestamp (a query's end time, an event's time). */
export interface SourceWindow {
  from: Date;
  to: Date;
}

/** A query that ran to its end: who ran it, where, when. The sync's and the diagnostics' records share it. */
export interface QueryRun {
  cluster_id: string;
  query_id: number;
  user_name: string;
  database: string;
  queue: string;
  start_time: string;
  end_time: string;
  query_text: string;
}

export interface FinishedQuery extends QueryRun {
  elapsed_ms: number;
  rows: number;
  spilled_bytes: number;
}

export interface TableStats {
  cluster_id: string;
  schema: string;
  table_name: string;
  size_mb: number;
  tbl_rows: number;
  unsorted_pct: number;
  stats_off: number;
  /** Rows on the fullest slice over rows on the emptiest (svv_table_info.skew_rows). */
  skew_rows: number;
}

export interface WlmQueueSample {
  cluster_id: string;
  queue: string;
  waiting: number;
  executing: number;
  /** Mean time the waiting queries have waited so far, in milliseconds. */
  avg_wait_ms: number;
}

export interface AlertLogEntry {
  cluster_id: string;
  query_id: number;
  event: string;
  event_time: string;
  schema: string;
  table_name: string;
  solution: string;
}

export interface WarehouseSyncSources {
  /** Queries that finished in the window, oldest end first. */
  finishedQueries(envId: string, window: SourceWindow): Promise<FinishedQuery[]>;
  /** Every table's statistics now. */
  tableStats(envId: string): Promise<TableStats[]>;
  /** Every WLM queue's load now. */
  wlmQueues(envId: string): Promise<WlmQueueSample[]>;
  /** The warehouse's alert log in the window, oldest first. */
  alertLog(envId: string, window: SourceWindow): Promise<AlertLogEntry[]>;
}
