import type { BuiltinMetricId } from '../../metric-catalogue.js';
import type { SqlStatement } from '../statement-runner.js';
import { alertEvent } from './alert-scan-sql.js';
import { unsortedPctStatement } from './table-info-sql.js';
import { sql, type KindSql, type MetricSqlParameters } from './warehouse-sql.js';
import { spillLevel, spilledBlocks } from './spill-sql.js';

/**
 * Serverless workgroups: no STL/STV tables, so the SYS_* monitoring views. Times in
 * sys_query_history are microseconds; sys_query_detail spill columns count 1 MB blocks and
 * repeat at several metric levels, so only step-level rows are summed.
 */

/** User statements only: user id 1 is rdsdb, Redshift's own housekeeping. */
const USER_QUERY = sql`h.user_id > 1`;

const metricStatement = (id: BuiltinMetricId, text: string, parameters: SqlStatement['parameters']): SqlStatement => ({
  name: `warehouse-watch:metric:${id}`,
  sql: text,
  parameters,
});

export const serverlessSql: KindSql = {
  clusterStorage: () => ({
    name: 'warehouse-watch:cluster',
    // A workgroup has no nodes or fixed capacity: report managed storage in use as one pseudo-node.
    sql: sql`
      SELECT 'workgroup' AS node_id, 0 AS slices, CAST(NULL AS BIGINT) AS capacity_mb, data_storage AS used_mb
      FROM sys_serverless_usage
      ORDER BY end_time DESC
      LIMIT 1`,
    parameters: {},
  }),

  slowQueries: (minExecSeconds) => ({
    name: 'warehouse-watch:slow-queries',
    sql: sql`
      SELECT query_id, exec_time_seconds, user_name, database, wlm_queue, query_text FROM (
        SELECT h.query_id AS query_id,
               FLOOR(DATEDIFF(millisecond, h.start_time, GETDATE()) / 1000.0 - COALESCE(h.queue_time, 0) / 1000000.0) AS exec_time_seconds,
               TRIM(COALESCE(u.usename, '')) AS user_name,
               TRIM(h.database_name) AS database,
               TRIM(COALESCE(h.service_class_name, '')) AS wlm_queue,
               TRIM(h.query_text) AS query_text
        FROM sys_query_history h
        LEFT JOIN pg_user u ON u.usesysid = h.user_id
        WHERE ${USER_QUERY} AND h.status = 'running'
      ) running
      WHERE exec_time_seconds > CAST(:min_exec_seconds AS BIGINT)
      ORDER BY exec_time_seconds DESC`,
    parameters: { min_exec_seconds: minExecSeconds },
  }),

  spillQueries: (since, limit) => ({
    name: 'warehouse-watch:spill-queries',
    sql: sql`
      SELECT d.query_id AS query_id,
             TRIM(COALESCE(MAX(u.usename), '')) AS user_name,
             SUM(${spilledBlocks('d.')}) AS spill_mb,
             FLOOR(MAX(h.execution_time) / 1000000.0) AS exec_time_seconds,
             TRIM(MAX(h.query_text)) AS query_text
      FROM sys_query_detail d
      JOIN sys_query_history h ON h.query_id = d.query_id
      LEFT JOIN pg_user u ON u.usesysid = h.user_id
      WHERE ${USER_QUERY} AND ${spillLevel('d.')} AND h.end_time >= CAST(:since AS TIMESTAMP)
      GROUP BY d.query_id
      HAVING SUM(${spilledBlocks('d.')}) > 0
      ORDER BY spill_mb DESC, query_id
      LIMIT ${String(limit)}`,
    parameters: { since },
  }),

  tableAlerts: (schema, since) => ({
    name: 'warehouse-watch:table-alerts',
    // sys_query_detail carries the alert text on the step that raised it, with the table it scanned;
    // the event is grouped up to its first colon, as on provisioned clusters.
    sql: sql`
      SELECT TRIM(t.schema) AS schema,
             TRIM(t."table") AS table_name,
             ${alertEvent('d.alert')} AS event,
             '' AS solution,
             COUNT(DISTINCT d.query_id) AS count,
             MAX(d.start_time) AS last_seen,
             MAX(d.query_id) AS sample_query_id
      FROM sys_query_detail d
      JOIN svv_table_info t ON t.table_id = d.table_id
      WHERE TRIM(COALESCE(d.alert, '')) <> '' AND d.start_time >= CAST(:since AS TIMESTAMP) AND t.schema = :schema
      GROUP BY 1, 2, 3
      ORDER BY count DESC, last_seen DESC`,
    parameters: { schema, since },
  }),

  metric(id, { since, schema }: MetricSqlParameters) {
    switch (id) {
      case 'query_runtime_seconds':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(MAX(CASE WHEN h.status = 'running'
                                   THEN DATEDIFF(millisecond, h.start_time, GETDATE()) * 1000 - COALESCE(h.queue_time, 0)
                                   ELSE h.execution_time END), 0) / 1000000.0 AS value
          FROM sys_query_history h
          WHERE ${USER_QUERY} AND (h.status = 'running' OR h.end_time >= CAST(:since AS TIMESTAMP))`,
          { since },
        );
      case 'queue_time_seconds':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(MAX(CASE WHEN h.status = 'queued'
                                   THEN DATEDIFF(millisecond, h.start_time, GETDATE()) * 1000
                                   ELSE h.queue_time END), 0) / 1000000.0 AS value
          FROM sys_query_history h
          WHERE ${USER_QUERY} AND (h.status = 'queued' OR h.start_time >= CAST(:since AS TIMESTAMP))`,
          { since },
        );
      case 'disk_spill_gb':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(SUM(${spilledBlocks('d.')}), 0) / 1024.0 AS value
          FROM sys_query_detail d
          WHERE ${spillLevel('d.')} AND d.end_time >= CAST(:since AS TIMESTAMP)`,
          { since },
        );
      case 'active_query_count':
        return metricStatement(
          id,
          sql`
          SELECT COUNT(*) AS value FROM sys_query_history h WHERE ${USER_QUERY} AND h.status = 'running'`,
          {},
        );
      case 'unsorted_pct':
        return unsortedPctStatement(schema);
      case 'storage_utilization_pct':
        return { unsupported: 'a serverless workgroup uses managed storage with no fixed capacity' };
      case 'cpu_utilization_pct':
        return { unsupported: 'a serverless workgroup reports compute in RPUs, not CPU utilization' };
    }
  },
};
