/** Result rows of sql/sync-sources-sql.ts → the port's sync records. */
import type { AlertLogEntry, FinishedQuery, TableStats, WlmQueueSample } from '../sync-sources.js';
import { integerOf, isoTimestampOf, numberOf, queryRunFrom, textOf, type ResultRow } from './result-rows.js';

export const finishedQueryFrom =
  (clusterId: string) =>
  (row: ResultRow): FinishedQuery => ({
    ...queryRunFrom(clusterId, row),
    elapsed_ms: integerOf(row, 'elapsed_ms'),
    rows: integerOf(row, 'rows'),
    spilled_bytes: integerOf(row, 'spilled_bytes'),
  });

export const tableStatsFrom =
  (clusterId: string) =>
  (row: ResultRow): TableStats => ({
    cluster_id: clusterId,
    schema: textOf(row, 'schema'),
    table_name: textOf(row, 'table_name'),
    size_mb: integerOf(row, 'size_mb'),
    tbl_rows: integerOf(row, 'tbl_rows'),
    unsorted_pct: numberOf(row, 'unsorted_pct'),
    stats_off: numberOf(row, 'stats_off'),
    skew_rows: numberOf(row, 'skew_rows'),
  });

export const wlmQueueFrom =
  (clusterId: string) =>
  (row: ResultRow): WlmQueueSample => ({
    cluster_id: clusterId,
    queue: textOf(row, 'queue'),
    waiting: integerOf(row, 'waiting'),
    executing: integerOf(row, 'executing'),
    avg_wait_ms: integerOf(row, 'avg_wait_ms'),
  });

export const alertLogEntryFrom =
  (clusterId: string) =>
  (row: ResultRow): AlertLogEntry => ({
    cluster_id: clusterId,
    query_id: integerOf(row, 'query_id'),
    event: textOf(row, 'event'),
    event_time: isoTimestampOf(row, 'event_time'),
    schema: textOf(row, 'schema'),
    table_name: textOf(row, 'table_name'),
    solution: textOf(row, 'solution'),
  });
