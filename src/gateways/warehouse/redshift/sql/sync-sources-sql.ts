import type { SqlStatement } from '../statement-runner.js';
import { sql } from './warehouse-sql.js';
import { spilledBlocksPerQuery } from './spill-sql.js';
import { ALERT_TABLE_JOIN, ALERT_USER_TABLES } from './alert-scan-sql.js';

/**
 * The sync jobs' statements. Query history and WLM load come from the SYS monitoring views, which
 * provisioned clusters and serverless workgroups both have; the alert log (STL_ALERT_EVENT_LOG)
 * exists on provisioned clusters only, so a serverless workgroup's alert log is empty. Window
 * bounds keep their milliseconds: [from, to) must tile exactly from one run to the next.
 */

const timestamp = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');

export function finishedQueriesStatement(from: Date, to: Date): SqlStatement {
  return {
    name: 'warehouse-watch:sync:query-history',
    sql: sql`
      SELECT h.query_id, COALESCE(TRIM(u.usename), CAST(h.user_id AS VARCHAR)) AS user_name, TRIM(h.database_name) AS database,
             COALESCE(TRIM(h.service_class_name), '') AS queue, h.start_time, h.end_time,
             h.elapsed_time / 1000 AS elapsed_ms, COALESCE(h.returned_rows, 0) AS rows,
             COALESCE(d.spilled_blocks, 0) * 1048576 AS spilled_bytes, LEFT(h.query_text, 4000) AS query_text
      FROM sys_query_history h
      LEFT JOIN pg_user u ON u.usesysid = h.user_id
      LEFT JOIN ${spilledBlocksPerQuery()} d ON d.query_id = h.query_id
      WHERE h.status IN ('success', 'failed', 'canceled')
        AND h.end_time >= CAST(:from AS TIMESTAMP) AND h.end_time < CAST(:to AS TIMESTAMP)
      ORDER BY h.end_time, h.query_id`,
    parameters: { from: timestamp(from), to: timestamp(to) },
  };
}

export function tableStatsStatement(schema: string): SqlStatement {
  return {
    name: 'warehouse-watch:sync:table-storage',
    sql: sql`
      SELECT TRIM(schema) AS schema, TRIM("table") AS table_name, COALESCE(size, 0) AS size_mb, COALESCE(tbl_rows, 0) AS tbl_rows,
             COALESCE(unsorted, 0) AS unsorted_pct, COALESCE(stats_off, 0) AS stats_off, COALESCE(skew_rows, 1) AS skew_rows
      FROM svv_table_info
      WHERE schema = :schema
      ORDER BY table_name`,
    parameters: { schema },
  };
}

export function wlmQueuesStatement(): SqlStatement {
  return {
    name: 'warehouse-watch:sync:wlm-queues',
    sql: sql`
      SELECT COALESCE(TRIM(service_class_name), '') AS queue,
             SUM(CASE WHEN status = 'queued' THEN 1 ELSE 0 END) AS waiting,
             SUM(CASE WHEN status = 'running' THEN 1 ELSE 0 END) AS executing,
             COALESCE(AVG(CASE WHEN status = 'queued' THEN DATEDIFF(ms, start_time, GETDATE()) END), 0) AS avg_wait_ms
      FROM sys_query_history
      WHERE status IN ('queued', 'running')
      GROUP BY 1
      ORDER BY 1`,
    parameters: {},
  };
}

export function alertLogStatement(schema: string, from: Date, to: Date): SqlStatement {
  return {
    name: 'warehouse-watch:sync:alert-events',
    sql: sql`
      SELECT DISTINCT a.query AS query_id, TRIM(a.event) AS event, a.event_time, TRIM(t.schema) AS schema,
             TRIM(t."table") AS table_name, TRIM(a.solution) AS solution
      FROM ${ALERT_TABLE_JOIN}
      WHERE ${ALERT_USER_TABLES} AND a.event_time >= CAST(:from AS TIMESTAMP) AND a.event_time < CAST(:to AS TIMESTAMP) AND t.schema = :schema
      ORDER BY a.event_time, a.query`,
    parameters: { schema, from: timestamp(from), to: timestamp(to) },
  };
}
