import { LONGEST_QUERIES_CAP, PLAN_LINES_CAP, QUERY_STEPS_CAP, QUERY_TEXT_FETCH_CAP } from '../../diagnostics.js';
import type { WarehouseKind } from '../../port.js';
import type { SqlStatement } from '../statement-runner.js';
import { sql } from './warehouse-sql.js';
import { spillLevel, spilledBlocks, spilledBlocksPerQuery } from './spill-sql.js';

/**
 * The query questions of the diagnostics (diagnostics.ts). Provisioned: STV for the live state,
 * STL/SVL for history (times in microseconds). Serverless: SYS_* views only (no STL/STV/SVL
 * there). Each statement names its columns the same on both kinds, so one mapper serves both;
 * values are `:named` parameters and the only numbers in the text are the caps of diagnostics.ts.
 */

const TEXT_CAP = String(QUERY_TEXT_FETCH_CAP);
/** WLM service classes that run user queries (manual 6-13, SQA 14, automatic 100+). */
const USER_QUEUE = sql`(w.service_class BETWEEN 6 AND 14 OR w.service_class >= 100)`;
const QUEUE_NAME = sql`TRIM(COALESCE(c.name, 'service class ' || w.service_class))`;
/** Serverless: user id 1 is rdsdb, Redshift's own housekeeping. */
const USER_QUERY = sql`h.user_id > 1`;
const FINISHED = sql`h.status IN ('success', 'failed', 'canceled')`;

const statement = (name: string, text: string, parameters: SqlStatement['parameters'] = {}): SqlStatement => ({
  name: `warehouse-watch:${name}`,
  sql: text,
  parameters,
});

export function runningQueriesStatement(kind: WarehouseKind): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'running-queries',
        sql`
      SELECT w.query AS query_id, COALESCE(i.pid, 0) AS pid,
             TRIM(COALESCE(r.user_name, u.usename, '')) AS user_name, TRIM(COALESCE(r.db_name, '')) AS database,
             ${QUEUE_NAME} AS queue,
             CASE WHEN w.state LIKE 'Queued%' THEN 'queued' ELSE 'running' END AS state,
             w.wlm_start_time AS submitted_at,
             FLOOR(w.queue_time / 1000000) AS queue_seconds, FLOOR(w.exec_time / 1000000) AS exec_seconds,
             LEFT(TRIM(COALESCE(r.query, i.text, '')), ${TEXT_CAP}) AS query_text
      FROM stv_wlm_query_state w
      LEFT JOIN (SELECT query, MIN(pid) AS pid, MIN(userid) AS userid, MIN(text) AS text FROM stv_inflight GROUP BY query) i ON i.query = w.query
      LEFT JOIN stv_recents r ON r.pid = i.pid AND r.status = 'Running'
      LEFT JOIN pg_user u ON u.usesysid = i.userid
      LEFT JOIN stv_wlm_service_class_config c ON c.service_class = w.service_class
      WHERE ${USER_QUEUE} AND (w.state = 'Running' OR w.state LIKE 'Queued%')
      ORDER BY w.wlm_start_time, w.query`,
      )
    : statement(
        'running-queries',
        sql`
      SELECT h.query_id AS query_id, h.session_id AS pid, TRIM(COALESCE(u.usename, '')) AS user_name,
             TRIM(h.database_name) AS database, TRIM(COALESCE(h.service_class_name, '')) AS queue,
             CASE WHEN h.status = 'queued' THEN 'queued' ELSE 'running' END AS state,
             h.start_time AS submitted_at,
             FLOOR(CASE WHEN h.status = 'queued' THEN DATEDIFF(millisecond, h.start_time, GETDATE()) / 1000.0
                        ELSE COALESCE(h.queue_time, 0) / 1000000.0 END) AS queue_seconds,
             FLOOR(CASE WHEN h.status = 'queued' THEN 0
                        ELSE DATEDIFF(millisecond, h.start_time, GETDATE()) / 1000.0 - COALESCE(h.queue_time, 0) / 1000000.0 END) AS exec_seconds,
             LEFT(TRIM(h.query_text), ${TEXT_CAP}) AS query_text
      FROM sys_query_history h
      LEFT JOIN pg_user u ON u.usesysid = h.user_id
      WHERE ${USER_QUERY} AND h.status IN ('planning', 'queued', 'running', 'returning')
      ORDER BY h.start_time, h.query_id`,
      );
}

export function longestQueriesStatement(kind: WarehouseKind, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'longest-queries',
        sql`
      SELECT q.query AS query_id, TRIM(COALESCE(u.usename, '')) AS user_name, TRIM(q.database) AS database,
             ${QUEUE_NAME} AS queue, q.starttime AS start_time, q.endtime AS end_time,
             COALESCE(w.total_queue_time, 0) / 1000000.0 AS queue_seconds,
             COALESCE(w.total_exec_time, 0) / 1000000.0 AS exec_seconds,
             LEFT(TRIM(q.querytxt), ${TEXT_CAP}) AS query_text
      FROM stl_query q
      JOIN stl_wlm_query w ON w.query = q.query
      LEFT JOIN pg_user u ON u.usesysid = q.userid
      LEFT JOIN stv_wlm_service_class_config c ON c.service_class = w.service_class
      WHERE ${USER_QUEUE} AND q.endtime >= CAST(:since AS TIMESTAMP)
      ORDER BY exec_seconds DESC, query_id
      LIMIT ${String(LONGEST_QUERIES_CAP)}`,
        { since },
      )
    : statement(
        'longest-queries',
        sql`
      SELECT h.query_id AS query_id, TRIM(COALESCE(u.usename, '')) AS user_name, TRIM(h.database_name) AS database,
             TRIM(COALESCE(h.service_class_name, '')) AS queue, h.start_time AS start_time, h.end_time AS end_time,
             COALESCE(h.queue_time, 0) / 1000000.0 AS queue_seconds, COALESCE(h.execution_time, 0) / 1000000.0 AS exec_seconds,
             LEFT(TRIM(h.query_text), ${TEXT_CAP}) AS query_text
      FROM sys_query_history h
      LEFT JOIN pg_user u ON u.usesysid = h.user_id
      WHERE ${USER_QUERY} AND ${FINISHED} AND h.end_time >= CAST(:since AS TIMESTAMP)
      ORDER BY exec_seconds DESC, query_id
      LIMIT ${String(LONGEST_QUERIES_CAP)}`,
        { since },
      );
}

/** One query's header. Provisioned history (stl_query) holds finished queries only. */
export function queryHeaderStatement(kind: WarehouseKind, queryId: number): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'query-details',
        sql`
      SELECT q.query AS query_id, TRIM(COALESCE(u.usename, '')) AS user_name, TRIM(q.database) AS database,
             CASE WHEN w.service_class IS NULL THEN '' ELSE ${QUEUE_NAME} END AS queue,
             CASE WHEN q.aborted = 1 THEN 'canceled' ELSE 'success' END AS status,
             q.starttime AS submitted_at, q.endtime AS end_time,
             COALESCE(w.total_queue_time, 0) / 1000000.0 AS queue_seconds,
             COALESCE(w.total_exec_time, 0) / 1000000.0 AS exec_seconds,
             COALESCE(m.query_temp_blocks_to_disk, 0) AS spill_mb,
             LEFT(TRIM(q.querytxt), ${TEXT_CAP}) AS query_text
      FROM stl_query q
      LEFT JOIN stl_wlm_query w ON w.query = q.query
      LEFT JOIN pg_user u ON u.usesysid = q.userid
      LEFT JOIN stv_wlm_service_class_config c ON c.service_class = w.service_class
      LEFT JOIN svl_query_metrics_summary m ON m.query = q.query
      WHERE q.query = CAST(:query_id AS INTEGER)`,
        { query_id: queryId },
      )
    : statement(
        'query-details',
        sql`
      SELECT h.query_id AS query_id, TRIM(COALESCE(u.usename, '')) AS user_name, TRIM(h.database_name) AS database,
             TRIM(COALESCE(h.service_class_name, '')) AS queue, TRIM(h.status) AS status,
             h.start_time AS submitted_at, h.end_time AS end_time,
             COALESCE(h.queue_time, 0) / 1000000.0 AS queue_seconds, COALESCE(h.execution_time, 0) / 1000000.0 AS exec_seconds,
             COALESCE(d.spilled_blocks, 0) AS spill_mb,
             LEFT(TRIM(h.query_text), ${TEXT_CAP}) AS query_text
      FROM sys_query_history h
      LEFT JOIN pg_user u ON u.usesysid = h.user_id
      LEFT JOIN ${spilledBlocksPerQuery('query_id = CAST(:query_id AS BIGINT)')} d ON d.query_id = h.query_id
      WHERE h.query_id = CAST(:query_id AS BIGINT)`,
        { query_id: queryId },
      );
}

/** Steps: svl_query_summary names the table inside the label ("scan tbl=… name=…"); the mapper reads it there. */
export function queryStepsStatement(kind: WarehouseKind, queryId: number): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'query-steps',
        sql`
      SELECT s.seg AS segment, s.step AS step, TRIM(s.label) AS label, '' AS table_name,
             COALESCE(s.rows, 0) AS rows, COALESCE(s.bytes, 0) AS bytes, COALESCE(s.maxtime, 0) / 1000000.0 AS max_seconds,
             CASE WHEN s.is_diskbased = 't' THEN 1 ELSE 0 END AS disk_based
      FROM svl_query_summary s
      WHERE s.query = CAST(:query_id AS INTEGER)
      ORDER BY s.stm, s.seg, s.step
      LIMIT ${String(QUERY_STEPS_CAP)}`,
        { query_id: queryId },
      )
    : statement(
        'query-steps',
        sql`
      SELECT d.segment_id AS segment, d.step_id AS step, TRIM(d.step_name) AS label, TRIM(COALESCE(d.table_name, '')) AS table_name,
             COALESCE(d.output_rows, 0) AS rows, COALESCE(d.output_bytes, 0) AS bytes, COALESCE(d.duration, 0) / 1000000.0 AS max_seconds,
             CASE WHEN ${spilledBlocks('d.')} > 0 THEN 1 ELSE 0 END AS disk_based
      FROM sys_query_detail d
      WHERE d.query_id = CAST(:query_id AS BIGINT) AND ${spillLevel('d.')}
      ORDER BY d.stream_id, d.segment_id, d.step_id
      LIMIT ${String(QUERY_STEPS_CAP)}`,
        { query_id: queryId },
      );
}

/**
 * The plan the engine stored for the query: one row per plan node, linked by parent id. On
 * serverless every column is selected (the qualifier column's name differs between the page's
 * column table and its sample: planRowOf in diagnostics-row-mappers.ts reads either), ordered by
 * rewritten child query, then node.
 */
export function queryPlanStatement(kind: WarehouseKind, queryId: number): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'query-plan',
        sql`
      SELECT nodeid AS node_id, parentid AS parent_id, TRIM(plannode) AS plan_node, TRIM(COALESCE(info, '')) AS info
      FROM stl_explain WHERE query = CAST(:query_id AS INTEGER) ORDER BY nodeid LIMIT ${String(PLAN_LINES_CAP)}`,
        { query_id: queryId },
      )
    : statement(
        'query-plan',
        sql`
      SELECT * FROM sys_query_explain WHERE query_id = CAST(:query_id AS BIGINT)
      ORDER BY child_query_sequence, plan_node_id LIMIT ${String(PLAN_LINES_CAP)}`,
        { query_id: queryId },
      );
}

export function queueWaitsStatement(kind: WarehouseKind, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'queue-waits',
        sql`
      SELECT ${QUEUE_NAME} AS queue, COUNT(*) AS queries,
             SUM(CASE WHEN w.total_queue_time >= 1000000 THEN 1 ELSE 0 END) AS queued_queries,
             COALESCE(AVG(w.total_queue_time), 0) / 1000000.0 AS avg_queue_seconds,
             COALESCE(MAX(w.total_queue_time), 0) / 1000000.0 AS max_queue_seconds,
             COALESCE(SUM(w.total_queue_time), 0) / 1000000.0 AS total_queue_seconds,
             COALESCE(AVG(w.total_exec_time), 0) / 1000000.0 AS avg_exec_seconds
      FROM stl_wlm_query w
      LEFT JOIN stv_wlm_service_class_config c ON c.service_class = w.service_class
      WHERE ${USER_QUEUE} AND w.queue_start_time >= CAST(:since AS TIMESTAMP)
      GROUP BY 1
      ORDER BY total_queue_seconds DESC, queue`,
        { since },
      )
    : statement(
        'queue-waits',
        sql`
      SELECT TRIM(COALESCE(h.service_class_name, '')) AS queue, COUNT(*) AS queries,
             SUM(CASE WHEN h.queue_time >= 1000000 THEN 1 ELSE 0 END) AS queued_queries,
             COALESCE(AVG(h.queue_time), 0) / 1000000.0 AS avg_queue_seconds,
             COALESCE(MAX(h.queue_time), 0) / 1000000.0 AS max_queue_seconds,
             COALESCE(SUM(h.queue_time), 0) / 1000000.0 AS total_queue_seconds,
             COALESCE(AVG(h.execution_time), 0) / 1000000.0 AS avg_exec_seconds
      FROM sys_query_history h
      WHERE ${USER_QUERY} AND h.start_time >= CAST(:since AS TIMESTAMP)
      GROUP BY 1
      ORDER BY total_queue_seconds DESC, queue`,
        { since },
      );
}
