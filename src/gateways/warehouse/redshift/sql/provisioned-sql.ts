import type { BuiltinMetricId } from '../../metric-catalogue.js';
import type { SqlStatement } from '../statement-runner.js';
import { CLUSTER_CAPACITY_SQL } from '../cluster-capacity.js';
import { ALERT_TABLE_JOIN, ALERT_USER_TABLES, alertEvent } from './alert-scan-sql.js';
import { unsortedPctStatement } from './table-info-sql.js';
import { sql, type KindSql, type MetricSqlParameters } from './warehouse-sql.js';

/**
 * Provisioned clusters: STV (live state), STL/SVL (recent history, about a week) and SVV views.
 * Times in STV_WLM_QUERY_STATE and STL_WLM_QUERY are microseconds.
 */

/** WLM service classes that run user queries: manual queues 6-13, short query acceleration 14, automatic WLM 100+. */
const USER_QUEUE = sql`(service_class BETWEEN 6 AND 14 OR service_class >= 100)`;

const metricStatement = (id: BuiltinMetricId, text: string, parameters: SqlStatement['parameters']): SqlStatement => ({
  name: `warehouse-watch:metric:${id}`,
  sql: text,
  parameters,
});

export const provisionedSql: KindSql = {
  clusterStorage: () => ({
    name: 'warehouse-watch:cluster',
    sql: sql`
      SELECT CAST(c.node AS VARCHAR) AS node_id, COUNT(s.slice) AS slices, c.capacity AS capacity_mb, c.used AS used_mb
      FROM stv_node_storage_capacity c
      LEFT JOIN stv_slices s ON s.node = c.node
      GROUP BY c.node, c.capacity, c.used
      ORDER BY c.node`,
    parameters: {},
  }),

  slowQueries: (minExecSeconds) => ({
    name: 'warehouse-watch:slow-queries',
    // stv_inflight has the query id; stv_recents (joined on pid) has the user, database and longer text.
    sql: sql`
      SELECT w.query AS query_id,
             FLOOR(w.exec_time / 1000000) AS exec_time_seconds,
             TRIM(COALESCE(r.user_name, u.usename, '')) AS user_name,
             TRIM(COALESCE(r.db_name, '')) AS database,
             TRIM(COALESCE(c.name, 'service class ' || w.service_class)) AS wlm_queue,
             TRIM(COALESCE(r.query, i.text, '')) AS query_text
      FROM stv_wlm_query_state w
      JOIN (SELECT query, MIN(pid) AS pid, MIN(userid) AS userid, MIN(text) AS text FROM stv_inflight GROUP BY query) i
        ON i.query = w.query
      LEFT JOIN stv_recents r ON r.pid = i.pid AND r.status = 'Running'
      LEFT JOIN pg_user u ON u.usesysid = i.userid
      LEFT JOIN stv_wlm_service_class_config c ON c.service_class = w.service_class
      WHERE w.state = 'Running' AND w.exec_time > CAST(:min_exec_seconds AS BIGINT) * 1000000
      ORDER BY w.exec_time DESC`,
    parameters: { min_exec_seconds: minExecSeconds },
  }),

  spillQueries: (since, limit) => ({
    name: 'warehouse-watch:spill-queries',
    // query_temp_blocks_to_disk counts 1 MB blocks written to temporary disk space.
    sql: sql`
      SELECT m.query AS query_id,
             TRIM(COALESCE(u.usename, '')) AS user_name,
             m.query_temp_blocks_to_disk AS spill_mb,
             FLOOR(COALESCE(m.query_execution_time, 0)) AS exec_time_seconds,
             TRIM(q.querytxt) AS query_text
      FROM svl_query_metrics_summary m
      JOIN stl_query q ON q.query = m.query
      LEFT JOIN pg_user u ON u.usesysid = m.userid
      WHERE m.query_temp_blocks_to_disk > 0 AND q.endtime >= CAST(:since AS TIMESTAMP)
      ORDER BY spill_mb DESC, query_id
      LIMIT ${String(limit)}`,
    parameters: { since },
  }),

  tableAlerts: (schema, since) => ({
    name: 'warehouse-watch:table-alerts',
    // Joined and grouped as AWS's own admin script does (alert-scan-sql.ts).
    sql: sql`
      SELECT TRIM(t.schema) AS schema,
             TRIM(t."table") AS table_name,
             ${alertEvent('a.event')} AS event,
             TRIM(a.solution) AS solution,
             COUNT(DISTINCT a.query) AS count,
             MAX(a.event_time) AS last_seen,
             MAX(a.query) AS sample_query_id
      FROM ${ALERT_TABLE_JOIN}
      WHERE ${ALERT_USER_TABLES} AND a.event_time >= CAST(:since AS TIMESTAMP) AND t.schema = :schema
      GROUP BY 1, 2, 3, 4
      ORDER BY count DESC, last_seen DESC`,
    parameters: { schema, since },
  }),

  metric(id, { since, windowSeconds, schema }: MetricSqlParameters) {
    switch (id) {
      case 'query_runtime_seconds':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(MAX(exec_us), 0) / 1000000.0 AS value FROM (
            SELECT total_exec_time AS exec_us FROM stl_wlm_query
             WHERE ${USER_QUEUE} AND exec_end_time >= CAST(:since AS TIMESTAMP)
            UNION ALL
            SELECT exec_time FROM stv_wlm_query_state WHERE ${USER_QUEUE} AND state = 'Running'
          ) runtimes`,
          { since },
        );
      case 'queue_time_seconds':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(MAX(queue_us), 0) / 1000000.0 AS value FROM (
            SELECT total_queue_time AS queue_us FROM stl_wlm_query
             WHERE ${USER_QUEUE} AND total_queue_time > 0 AND queue_end_time >= CAST(:since AS TIMESTAMP)
            UNION ALL
            SELECT queue_time FROM stv_wlm_query_state WHERE ${USER_QUEUE} AND state LIKE 'Queued%'
          ) waits`,
          { since },
        );
      case 'disk_spill_gb':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(SUM(m.query_temp_blocks_to_disk), 0) / 1024.0 AS value
          FROM svl_query_metrics_summary m JOIN stl_query q ON q.query = m.query
          WHERE q.endtime >= CAST(:since AS TIMESTAMP)`,
          { since },
        );
      case 'active_query_count':
        return metricStatement(
          id,
          sql`
          SELECT COUNT(*) AS value FROM stv_wlm_query_state WHERE ${USER_QUEUE} AND state = 'Running'`,
          {},
        );
      case 'storage_utilization_pct':
        return metricStatement(
          id,
          sql`
          SELECT COALESCE(SUM(used) * 100.0 / NULLIF(${CLUSTER_CAPACITY_SQL}, 0), 0) AS value FROM stv_node_storage_capacity`,
          {},
        );
      case 'unsorted_pct':
        return unsortedPctStatement(schema);
      case 'cpu_utilization_pct':
        // The system tables have no host CPU gauge (that is CloudWatch's CPUUtilization); this
        // estimates it as each finished query's CPU share weighted by its runtime, over the window.
        return metricStatement(
          id,
          sql`
          SELECT LEAST(100, COALESCE(SUM(m.query_cpu_usage_percent * m.query_execution_time), 0)
                 / CAST(:window_seconds AS FLOAT8)) AS value
          FROM svl_query_metrics_summary m JOIN stl_query q ON q.query = m.query
          WHERE q.endtime >= CAST(:since AS TIMESTAMP)`,
          { since, window_seconds: windowSeconds },
        );
    }
  },
};
