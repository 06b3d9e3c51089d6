/** Result rows of sql/{query,workload}-diagnostics-sql.ts and sql/catalogue-sql.ts → the diagnostics records. */
import type {
  CatalogColumn,
  CatalogSchema,
  CatalogTable,
  CommitRecord,
  CommitSummary,
  LoadError,
  LockWait,
  LongQuery,
  QueryDetails,
  QueryStep,
  QueueWaitStats,
  RunningQuery,
  ScalingPeriod,
  UserWorkload,
} from '../diagnostics.js';
import { planLayout } from '../plan-layout.js';
import { roundTo } from '../table-health.js';
import { integerOf, isoTimestampOf, numberOf, queryRunFrom, textOf, type ResultRow } from './result-rows.js';

const seconds = (row: ResultRow, column: string) => roundTo(numberOf(row, column), 3);
const nullableSeconds = (row: ResultRow, column: string) =>
  row[column] === null || row[column] === undefined ? null : seconds(row, column);
const nullableInteger = (row: ResultRow, column: string) =>
  row[column] === null || row[column] === undefined ? null : integerOf(row, column);
const flag = (row: ResultRow, column: string) => {
  const value = row[column];
  return value === true || value === 't' || value === 'true' || (value !== null && Number(value) === 1);
};

export const runningQueryFrom =
  (clusterId: string) =>
  (row: ResultRow): RunningQuery => ({
    cluster_id: clusterId,
    query_id: integerOf(row, 'query_id'),
    pid: integerOf(row, 'pid'),
    user_name: textOf(row, 'user_name'),
    database: textOf(row, 'database'),
    queue: textOf(row, 'queue'),
    state: textOf(row, 'state') === 'queued' ? 'queued' : 'running',
    submitted_at: isoTimestampOf(row, 'submitted_at'),
    queue_seconds: integerOf(row, 'queue_seconds'),
    exec_seconds: integerOf(row, 'exec_seconds'),
    query_text: textOf(row, 'query_text'),
  });

export const longQueryFrom =
  (clusterId: string) =>
  (row: ResultRow): LongQuery => ({
    ...queryRunFrom(clusterId, row),
    queue_seconds: seconds(row, 'queue_seconds'),
    exec_seconds: seconds(row, 'exec_seconds'),
  });

/** svl_query_summary labels read "scan   tbl=108290 name=fact_orders"; SYS rows name the table in a column. */
function stepTable(row: ResultRow): string | null {
  const named = textOf(row, 'table_name');
  if (named) return named;
  return /\bname=(\S+)/.exec(textOf(row, 'label'))?.[1] ?? null;
}

export const queryStepFrom = (row: ResultRow): QueryStep => ({
  segment: integerOf(row, 'segment'),
  step: integerOf(row, 'step'),
  label: textOf(row, 'label').split(/\s+/)[0] ?? '',
  table_name: stepTable(row),
  rows: integerOf(row, 'rows'),
  bytes: integerOf(row, 'bytes'),
  max_seconds: seconds(row, 'max_seconds'),
  disk_based: flag(row, 'disk_based'),
});

/**
 * A plan row under the names we use. STL_EXPLAIN is selected with aliases (node_id, parent_id,
 * plan_node, info). SYS_QUERY_EXPLAIN is selected whole, because AWS's page disagrees with itself
 * on the qualifier column: its column table says `node_info`, its sample output prints
 * `plan_info` (https://docs.aws.amazon.com/redshift/latest/dg/SYS_QUERY_EXPLAIN.html); whichever
 * the warehouse has is read. A rewritten query has one plan per `child_query_sequence`.
 */
function planRowOf(row: ResultRow) {
  const first = (...columns: string[]) => columns.find((column) => column in row) ?? columns[0]!;
  return {
    sequence: 'child_query_sequence' in row ? integerOf(row, 'child_query_sequence') : 1,
    node: integerOf(row, first('node_id', 'plan_node_id')),
    parent: integerOf(row, first('parent_id', 'plan_parent_id')),
    text: textOf(row, 'plan_node'),
    info: textOf(row, first('info', 'node_info', 'plan_info')),
  };
}

/** Plan rows → lines laid out as EXPLAIN prints them (planLayout), info under its node, each child query's plan in turn. */
export function planLinesFrom(rows: readonly ResultRow[]): string[] {
  const plan = rows.map(planRowOf).sort((a, b) => a.sequence - b.sequence || a.node - b.node);
  const key = (sequence: number, node: number) => `${sequence}:${node}`;
  const parents = new Map(plan.map((row) => [key(row.sequence, row.node), row.parent]));
  const depthOf = (sequence: number, node: number) => {
    let depth = 0;
    for (
      let parent = parents.get(key(sequence, node));
      parent !== undefined && parents.has(key(sequence, parent)) && depth < 100;
      parent = parents.get(key(sequence, parent))
    )
      depth++;
    return depth;
  };
  return plan.flatMap((row) => planLayout(depthOf(row.sequence, row.node), row.text, row.info ? [row.info] : []));
}

export function queryDetailsFrom(
  clusterId: string,
  header: ResultRow,
  steps: readonly ResultRow[],
  plan: readonly ResultRow[],
): QueryDetails {
  const end = textOf(header, 'end_time');
  return {
    cluster_id: clusterId,
    query_id: integerOf(header, 'query_id'),
    user_name: textOf(header, 'user_name'),
    database: textOf(header, 'database'),
    queue: textOf(header, 'queue'),
    status: textOf(header, 'status'),
    submitted_at: isoTimestampOf(header, 'submitted_at'),
    end_time: end ? isoTimestampOf(header, 'end_time') : null,
    queue_seconds: seconds(header, 'queue_seconds'),
    exec_seconds: seconds(header, 'exec_seconds'),
    spill_mb: integerOf(header, 'spill_mb'),
    query_text: textOf(header, 'query_text'),
    steps: steps.map(queryStepFrom),
    plan: planLinesFrom(plan),
  };
}

export const queueWaitFrom =
  (clusterId: string) =>
  (row: ResultRow): QueueWaitStats => ({
    cluster_id: clusterId,
    queue: textOf(row, 'queue'),
    queries: integerOf(row, 'queries'),
    queued_queries: integerOf(row, 'queued_queries'),
    avg_queue_seconds: seconds(row, 'avg_queue_seconds'),
    max_queue_seconds: seconds(row, 'max_queue_seconds'),
    total_queue_seconds: seconds(row, 'total_queue_seconds'),
    avg_exec_seconds: seconds(row, 'avg_exec_seconds'),
  });

export const userWorkloadFrom =
  (clusterId: string) =>
  (row: ResultRow): UserWorkload => ({
    cluster_id: clusterId,
    user_name: textOf(row, 'user_name'),
    queries: integerOf(row, 'queries'),
    total_exec_seconds: seconds(row, 'total_exec_seconds'),
    avg_exec_seconds: seconds(row, 'avg_exec_seconds'),
    max_exec_seconds: seconds(row, 'max_exec_seconds'),
    total_queue_seconds: seconds(row, 'total_queue_seconds'),
    avg_queue_seconds: seconds(row, 'avg_queue_seconds'),
    spill_mb: integerOf(row, 'spill_mb'),
  });

export const scalingPeriodFrom =
  (clusterId: string) =>
  (row: ResultRow): ScalingPeriod => ({
    cluster_id: clusterId,
    start_time: isoTimestampOf(row, 'start_time'),
    end_time: isoTimestampOf(row, 'end_time'),
    queries: integerOf(row, 'queries'),
    usage_seconds: seconds(row, 'usage_seconds'),
  });

export const lockWaitFrom =
  (clusterId: string) =>
  (row: ResultRow): LockWait => ({
    cluster_id: clusterId,
    schema: textOf(row, 'schema'),
    table_name: textOf(row, 'table_name'),
    waiting_pid: integerOf(row, 'waiting_pid'),
    waiting_user: textOf(row, 'waiting_user'),
    requested_lock: textOf(row, 'requested_lock'),
    waiting_seconds: integerOf(row, 'waiting_seconds'),
    waiting_query_text: textOf(row, 'waiting_query_text'),
    blocking_pid: integerOf(row, 'blocking_pid'),
    blocking_user: textOf(row, 'blocking_user'),
    held_lock: textOf(row, 'held_lock'),
    blocking_seconds: integerOf(row, 'blocking_seconds'),
    blocking_query_text: textOf(row, 'blocking_query_text'),
  });

/** The summary row of a window without commits carries no figures: no summary then. */
export function commitSummaryFrom(clusterId: string, row: ResultRow | undefined): CommitSummary[] {
  if (!row || integerOf(row, 'commits') === 0) return [];
  return [
    {
      cluster_id: clusterId,
      commits: integerOf(row, 'commits'),
      avg_queue_seconds: nullableSeconds(row, 'avg_queue_seconds'),
      max_queue_seconds: nullableSeconds(row, 'max_queue_seconds'),
      avg_commit_seconds: seconds(row, 'avg_commit_seconds'),
      max_commit_seconds: seconds(row, 'max_commit_seconds'),
      max_queue_length: nullableInteger(row, 'max_queue_length'),
    },
  ];
}

export const commitRecordFrom =
  (clusterId: string) =>
  (row: ResultRow): CommitRecord => ({
    cluster_id: clusterId,
    xid: integerOf(row, 'xid'),
    user_name: textOf(row, 'user_name'),
    queued_at: isoTimestampOf(row, 'queued_at'),
    queue_seconds: nullableSeconds(row, 'queue_seconds'),
    commit_seconds: seconds(row, 'commit_seconds'),
    queue_length: nullableInteger(row, 'queue_length'),
  });

export const loadErrorFrom =
  (clusterId: string) =>
  (row: ResultRow): LoadError => ({
    cluster_id: clusterId,
    query_id: integerOf(row, 'query_id'),
    time: isoTimestampOf(row, 'time'),
    schema: textOf(row, 'schema'),
    table_name: textOf(row, 'table_name'),
    file_name: textOf(row, 'file_name'),
    line_number: integerOf(row, 'line_number'),
    column_name: textOf(row, 'column_name'),
    column_type: textOf(row, 'column_type'),
    error_code: integerOf(row, 'error_code'),
    error_message: textOf(row, 'error_message'),
    raw_value: textOf(row, 'raw_value'),
  });

export const catalogSchemaFrom =
  (clusterId: string) =>
  (row: ResultRow): CatalogSchema => ({
    cluster_id: clusterId,
    schema: textOf(row, 'schema'),
    owner: textOf(row, 'owner'),
    table_count: integerOf(row, 'table_count'),
    size_mb: integerOf(row, 'size_mb'),
  });

export const catalogTableFrom =
  (clusterId: string) =>
  (row: ResultRow): CatalogTable => ({
    cluster_id: clusterId,
    schema: textOf(row, 'schema'),
    table_name: textOf(row, 'table_name'),
    table_type: textOf(row, 'table_type').toUpperCase().includes('VIEW') ? 'VIEW' : 'TABLE',
    size_mb: integerOf(row, 'size_mb'),
    tbl_rows: integerOf(row, 'tbl_rows'),
    dist_style: textOf(row, 'dist_style'),
    sortkey1: textOf(row, 'sortkey1'),
  });

export const catalogColumnFrom =
  (clusterId: string) =>
  (row: ResultRow): CatalogColumn => ({
    cluster_id: clusterId,
    position: integerOf(row, 'position'),
    column_name: textOf(row, 'column_name'),
    data_type: textOf(row, 'data_type'),
    nullable: flag(row, 'nullable'),
    encoding: textOf(row, 'encoding'),
    distkey: flag(row, 'distkey'),
    sortkey: integerOf(row, 'sortkey'),
  });
