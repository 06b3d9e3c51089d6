import type { BuiltinMetricId } from '../../metric-catalogue.js';
import type { SqlStatement } from '../statement-runner.js';

/**
 * What the adapter asks each kind of warehouse. Provisioned clusters answer from the STL/STV/SVL
 * system tables; serverless workgroups have no STL/STV and answer from the SYS_* monitoring
 * views. svv_table_info exists on both (table-info-sql.ts).
 *
 * Every statement names its result columns the same way on both kinds, so one set of row mappers
 * (row-mappers.ts) serves both. Values are always `:named` parameters; SQL text is constant.
 */

export interface MetricSqlParameters {
  /** Window start, as toRedshiftTimestamp() renders it. */
  since: string;
  windowSeconds: number;
  schema: string;
}

/** A metric the warehouse kind cannot measure, and why (reported as MetricNotSupportedError). */
export interface UnsupportedMetric {
  unsupported: string;
}

export interface KindSql {
  /** Columns: node_id, slices, capacity_mb (null when unbounded), used_mb. */
  clusterStorage(): SqlStatement;
  /** Columns: query_id, exec_time_seconds, user_name, database, wlm_queue, query_text. */
  slowQueries(minExecSeconds: number): SqlStatement;
  /** Columns: query_id, user_name, spill_mb, exec_time_seconds, query_text. */
  spillQueries(since: string, limit: number): SqlStatement;
  /** Columns: schema, table_name, event, solution ('' when the kind has none), count, last_seen, sample_query_id. */
  tableAlerts(schema: string, since: string): SqlStatement;
  /** Column: value. */
  metric(id: BuiltinMetricId, parameters: MetricSqlParameters): SqlStatement | UnsupportedMetric;
}

export const isUnsupported = (value: SqlStatement | UnsupportedMetric): value is UnsupportedMetric =>
  'unsupported' in value;

/** Collapses the indentation of a SQL template so statements log (and diff in tests) on one line. */
export const sql = (strings: TemplateStringsArray, ...fragments: string[]): string =>
  strings
    .reduce((text, part, i) => text + part + (fragments[i] ?? ''), '')
    .replace(/\s+/g, ' ')
    .trim();
