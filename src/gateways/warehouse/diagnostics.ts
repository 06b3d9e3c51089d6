/**
 * The diagnostic questions of the warehouse port (part of WarehouseGateway, like the sync sources):
 * what the analytics assistant's warehouse tools ask beyond the health endpoints. Every question
 * is scoped by env_id and reads live; look-backs are whole hours counted back from the adapter's
 * own clock; lists are capped (the caps below) so one answer stays small. Times are ISO 8601.
 *
 * Catalogue questions (schemas, tables, columns) stay inside what the environment's table
 * questions cover: on Redshift its configured schema, on the simulated warehouse its schemas.
 */
import type { QueryRun } from './sync-sources.js';

/** STL history is kept for about a week on provisioned clusters; SYS views keep 7 days. */
export const MAX_LOOKBACK_HOURS = 168;
/** Longest finished queries per answer. */
export const LONGEST_QUERIES_CAP = 50;
/** Query steps and plan lines of one query. */
export const QUERY_STEPS_CAP = 100;
export const PLAN_LINES_CAP = 200;
/** Load (COPY) error rows per answer, newest first. */
export const LOAD_ERRORS_CAP = 100;
/** Slowest commits listed besides the summary. */
export const WORST_COMMITS_CAP = 20;
/** Users per workload answer, busiest first. */
export const USER_WORKLOAD_CAP = 100;
/** Adapters fetch at most this many characters of query text; tools cut further for the model. */
export const QUERY_TEXT_FETCH_CAP = 4000;

export type RunningState = 'queued' | 'running';

export interface RunningQuery {
  cluster_id: string;
  query_id: number;
  /** The session (process) id, as svv_transactions and lock waits name it. */
  pid: number;
  user_name: string;
  database: string;
  queue: string;
  state: RunningState;
  /** ISO 8601: when the query entered its queue. */
  submitted_at: string;
  queue_seconds: number;
  /** 0 while queued. */
  exec_seconds: number;
  query_text: string;
}

export interface LongQuery extends QueryRun {
  queue_seconds: number;
  exec_seconds: number;
}

export interface QueryStep {
  /** Segment and step numbers as the engine numbers them. */
  segment: number;
  step: number;
  /** scan, hash, hjoin, aggr, sort, return, insert, ... */
  label: string;
  /** The table a scan or write step touched; null for the others. */
  table_name: string | null;
  rows: number;
  bytes: number;
  /** Longest time of the step on any slice. */
  max_seconds: number;
  /** The step spilled to disk (ran out of working memory). */
  disk_based: boolean;
}

export interface QueryDetails {
  cluster_id: string;
  query_id: number;
  user_name: string;
  database: string;
  queue: string;
  /** running, queued, success, failed or canceled. */
  status: string;
  submitted_at: string;
  end_time: string | null;
  queue_seconds: number;
  exec_seconds: number;
  spill_mb: number;
  query_text: string;
  steps: QueryStep[];
  /** The stored EXPLAIN plan, one line per plan node, indented by depth. */
  plan: string[];
}

export interface QueueWaitStats {
  cluster_id: string;
  queue: string;
  queries: number;
  /** Queries that waited a second or more. */
  queued_queries: number;
  avg_queue_seconds: number;
  max_queue_seconds: number;
  total_queue_seconds: number;
  avg_exec_seconds: number;
}

export interface LockWait {
  cluster_id: string;
  /** Schema and table of the contended table; empty strings when the view does not name it. */
  schema: string;
  table_name: string;
  waiting_pid: number;
  waiting_user: string;
  requested_lock: string;
  waiting_seconds: number;
  waiting_query_text: string;
  blocking_pid: number;
  blocking_user: string;
  held_lock: string;
  /** How long the blocking transaction has been open. */
  blocking_seconds: number;
  blocking_query_text: string;
}

export interface CommitRecord {
  cluster_id: string;
  xid: number;
  user_name: string;
  queued_at: string;
  /** null where the warehouse does not report the commit queue (serverless). */
  queue_seconds: number | null;
  commit_seconds: number;
  queue_length: number | null;
}

export interface CommitSummary {
  cluster_id: string;
  commits: number;
  avg_queue_seconds: number | null;
  max_queue_seconds: number | null;
  avg_commit_seconds: number;
  max_commit_seconds: number;
  max_queue_length: number | null;
}

export interface CommitQueueReport {
  summaries: CommitSummary[];
  /** The WORST_COMMITS_CAP longest waits (then longest commits), worst first. */
  worst: CommitRecord[];
}

export interface LoadError {
  cluster_id: string;
  query_id: number;
  time: string;
  schema: string;
  table_name: string;
  file_name: string;
  line_number: number;
  column_name: string;
  column_type: string;
  error_code: number;
  error_message: string;
  /** The offending field as loaded (provisioned only; empty on serverless). */
  raw_value: string;
}

export interface UserWorkload {
  cluster_id: string;
  user_name: string;
  queries: number;
  total_exec_seconds: number;
  avg_exec_seconds: number;
  max_exec_seconds: number;
  total_queue_seconds: number;
  avg_queue_seconds: number;
  spill_mb: number;
}

export interface ScalingPeriod {
  cluster_id: string;
  start_time: string;
  end_time: string;
  queries: number;
  usage_seconds: number;
}

export interface CatalogSchema {
  cluster_id: string;
  schema: string;
  owner: string;
  table_count: number;
  size_mb: number;
}

export interface CatalogTable {
  cluster_id: string;
  schema: string;
  table_name: string;
  /** TABLE or VIEW. */
  table_type: string;
  size_mb: number;
  tbl_rows: number;
  dist_style: string;
  sortkey1: string;
}

export interface CatalogColumn {
  cluster_id: string;
  position: number;
  column_name: string;
  data_type: string;
  nullable: boolean;
  encoding: string;
  distkey: boolean;
  /** Position in the sort key, 0 when not part of it (negative: interleaved). */
  sortkey: number;
}

/** Look-backs are whole hours, 1 to MAX_LOOKBACK_HOURS; adapters check before they ask. */
export function assertLookback(hours: number): void {
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_LOOKBACK_HOURS) {
    throw new RangeError(`a look-back is a whole number of hours from 1 to ${MAX_LOOKBACK_HOURS}, got ${hours}`);
  }
}

/** The SQL handed to explain() names a relation the warehouse does not have. */
export class UnknownRelationError extends Error {
  override readonly name = 'UnknownRelationError';
  constructor(readonly relation: string) {
    super(`relation "${relation}" does not exist`);
  }
}

/** SQL text handed to explain() that is not a single read-only SELECT (see read-only-select.ts). */
export class RefusedSqlError extends Error {
  override readonly name = 'RefusedSqlError';
}

export interface WarehouseDiagnostics {
  /** Queries queued or executing now, longest-lived first. */
  runningQueries(envId: string): Promise<RunningQuery[]>;
  /** The LONGEST_QUERIES_CAP longest-executing queries that finished in the look-back, longest first. */
  longestQueries(envId: string, lookbackHours: number): Promise<LongQuery[]>;
  /** One query by id, with its steps and plan; null when the warehouse has no such query (any more). */
  queryDetails(envId: string, queryId: number): Promise<QueryDetails | null>;
  /** The plan of a single read-only SELECT (refused otherwise with RefusedSqlError), one line per node. */
  explain(envId: string, selectSql: string): Promise<string[]>;
  /** Per queue, queries that started in the look-back: waits and execution, most total wait first. */
  queueWaits(envId: string, lookbackHours: number): Promise<QueueWaitStats[]>;
  /** Sessions waiting now for a table lock another session holds, longest wait first. */
  lockWaits(envId: string): Promise<LockWait[]>;
  /** Commits in the look-back: a summary per cluster and the worst commits. */
  commitQueue(envId: string, lookbackHours: number): Promise<CommitQueueReport>;
  /** COPY errors in the look-back, newest first, at most LOAD_ERRORS_CAP. */
  loadErrors(envId: string, lookbackHours: number): Promise<LoadError[]>;
  /** Finished queries in the look-back per user, most execution time first. */
  userWorkload(envId: string, lookbackHours: number): Promise<UserWorkload[]>;
  /** Concurrency scaling activity in the look-back, oldest period first. */
  concurrencyScaling(envId: string, lookbackHours: number): Promise<ScalingPeriod[]>;
  schemas(envId: string): Promise<CatalogSchema[]>;
  /** Tables (and views) of one schema, by name. */
  tables(envId: string, schema: string): Promise<CatalogTable[]>;
  /** Columns of one table in table order; empty when there is no such table. */
  columns(envId: string, schema: string, table: string): Promise<CatalogColumn[]>;
}
