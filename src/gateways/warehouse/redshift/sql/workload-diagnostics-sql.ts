import { LOAD_ERRORS_CAP, QUERY_TEXT_FETCH_CAP, USER_WORKLOAD_CAP, WORST_COMMITS_CAP } from '../../diagnostics.js';
import type { WarehouseKind } from '../../port.js';
import type { SqlStatement } from '../statement-runner.js';
import { sql } from './warehouse-sql.js';
import { spilledBlocksPerQuery } from './spill-sql.js';

/**
 * Workload, transaction and load questions of the diagnostics. Provisioned: STL/STV/SVL/SVCS and
 * SVV views; serverless: SYS_* views and the SVV views both kinds have (svv_transactions,
 * svv_table_info). Table-level answers (load errors) keep to the environment schema like the
 * other table questions.
 */

const TEXT_CAP = String(QUERY_TEXT_FETCH_CAP);
const USER_QUEUE = sql`(w.service_class BETWEEN 6 AND 14 OR w.service_class >= 100)`;
const USER_QUERY = sql`h.user_id > 1`;

const statement = (name: string, text: string, parameters: SqlStatement['parameters'] = {}): SqlStatement => ({
  name: `warehouse-watch:${name}`,
  sql: text,
  parameters,
});

export function userWorkloadStatement(kind: WarehouseKind, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'user-workload',
        sql`
      SELECT TRIM(COALESCE(u.usename, CAST(w.userid AS VARCHAR))) AS user_name, COUNT(*) AS queries,
             COALESCE(SUM(w.total_exec_time), 0) / 1000000.0 AS total_exec_seconds,
             COALESCE(AVG(w.total_exec_time), 0) / 1000000.0 AS avg_exec_seconds,
             COALESCE(MAX(w.total_exec_time), 0) / 1000000.0 AS max_exec_seconds,
             COALESCE(SUM(w.total_queue_time), 0) / 1000000.0 AS total_queue_seconds,
             COALESCE(AVG(w.total_queue_time), 0) / 1000000.0 AS avg_queue_seconds,
             COALESCE(SUM(m.query_temp_blocks_to_disk), 0) AS spill_mb
      FROM stl_wlm_query w
      LEFT JOIN pg_user u ON u.usesysid = w.userid
      LEFT JOIN svl_query_metrics_summary m ON m.query = w.query
      WHERE ${USER_QUEUE} AND w.exec_end_time >= CAST(:since AS TIMESTAMP)
      GROUP BY 1
      ORDER BY total_exec_seconds DESC, user_name
      LIMIT ${String(USER_WORKLOAD_CAP)}`,
        { since },
      )
    : statement(
        'user-workload',
        sql`
      SELECT TRIM(COALESCE(u.usename, CAST(h.user_id AS VARCHAR))) AS user_name, COUNT(*) AS queries,
             COALESCE(SUM(h.execution_time), 0) / 1000000.0 AS total_exec_seconds,
             COALESCE(AVG(h.execution_time), 0) / 1000000.0 AS avg_exec_seconds,
             COALESCE(MAX(h.execution_time), 0) / 1000000.0 AS max_exec_seconds,
             COALESCE(SUM(h.queue_time), 0) / 1000000.0 AS total_queue_seconds,
             COALESCE(AVG(h.queue_time), 0) / 1000000.0 AS avg_queue_seconds,
             COALESCE(SUM(d.spilled_blocks), 0) AS spill_mb
      FROM sys_query_history h
      LEFT JOIN pg_user u ON u.usesysid = h.user_id
      LEFT JOIN ${spilledBlocksPerQuery()} d ON d.query_id = h.query_id
      WHERE ${USER_QUERY} AND h.status IN ('success', 'failed', 'canceled') AND h.end_time >= CAST(:since AS TIMESTAMP)
      GROUP BY 1
      ORDER BY total_exec_seconds DESC, user_name
      LIMIT ${String(USER_WORKLOAD_CAP)}`,
        { since },
      );
}

/**
 * Provisioned: the usage periods of the concurrency scaling clusters. Serverless has no separate
 * scaling clusters to bill; queries on secondary compute (compute_type) are the nearest figure,
 * summed per hour.
 */
export function concurrencyScalingStatement(kind: WarehouseKind, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'concurrency-scaling',
        sql`
      SELECT start_time, end_time, COALESCE(queries, 0) AS queries, COALESCE(usage_in_seconds, 0) AS usage_seconds
      FROM svcs_concurrency_scaling_usage
      WHERE end_time >= CAST(:since AS TIMESTAMP)
      ORDER BY start_time`,
        { since },
      )
    : statement(
        'concurrency-scaling',
        sql`
      SELECT DATE_TRUNC('hour', h.start_time) AS start_time, DATEADD(hour, 1, DATE_TRUNC('hour', h.start_time)) AS end_time,
             COUNT(*) AS queries, COALESCE(SUM(h.execution_time), 0) / 1000000.0 AS usage_seconds
      FROM sys_query_history h
      WHERE ${USER_QUERY} AND TRIM(h.compute_type) = 'secondary' AND h.start_time >= CAST(:since AS TIMESTAMP)
      GROUP BY 1, 2
      ORDER BY 1`,
        { since },
      );
}

/** The text of what each session is running now, to show beside its lock. */
const sessionText = (kind: WarehouseKind) =>
  kind === 'provisioned'
    ? sql`(SELECT pid, MAX(LEFT(TRIM(query), ${TEXT_CAP})) AS query_text, MIN(starttime) AS started FROM stv_recents WHERE status = 'Running' GROUP BY pid)`
    : sql`(SELECT session_id AS pid, MAX(LEFT(TRIM(query_text), ${TEXT_CAP})) AS query_text, MIN(start_time) AS started
           FROM sys_query_history WHERE status IN ('planning', 'queued', 'running', 'returning') GROUP BY session_id)`;

/**
 * Redshift's three table lock modes and what blocks what: AccessExclusiveLock (DDL, TRUNCATE,
 * VACUUM's final step) conflicts with every lock; ShareRowExclusiveLock (writes) with itself and
 * AccessExclusiveLock; AccessShareLock (reads) only with AccessExclusiveLock.
 */
const CONFLICTS = sql`(TRIM(w.lock_mode) = 'AccessExclusiveLock' OR TRIM(h.lock_mode) = 'AccessExclusiveLock'
  OR (TRIM(w.lock_mode) = 'ShareRowExclusiveLock' AND TRIM(h.lock_mode) = 'ShareRowExclusiveLock'))`;

/** A waiting lock request (granted = false) paired with every granted lock on the same table that it conflicts with. */
export function lockWaitsStatement(kind: WarehouseKind): SqlStatement {
  return statement(
    'lock-waits',
    sql`
    SELECT TRIM(COALESCE(t.schema, '')) AS schema, TRIM(COALESCE(t."table", CAST(w.relation AS VARCHAR))) AS table_name,
           w.pid AS waiting_pid, TRIM(w.txn_owner) AS waiting_user, TRIM(w.lock_mode) AS requested_lock,
           DATEDIFF(second, COALESCE(wq.started, w.txn_start), GETDATE()) AS waiting_seconds,
           COALESCE(wq.query_text, '') AS waiting_query_text,
           h.pid AS blocking_pid, TRIM(h.txn_owner) AS blocking_user, TRIM(h.lock_mode) AS held_lock,
           DATEDIFF(second, h.txn_start, GETDATE()) AS blocking_seconds,
           COALESCE(hq.query_text, '') AS blocking_query_text
    FROM svv_transactions w
    JOIN svv_transactions h ON h.relation = w.relation AND h.granted AND h.pid <> w.pid AND h.lockable_object_type = 'relation'
    LEFT JOIN svv_table_info t ON t.table_id = w.relation
    LEFT JOIN ${sessionText(kind)} wq ON wq.pid = w.pid
    LEFT JOIN ${sessionText(kind)} hq ON hq.pid = h.pid
    WHERE NOT w.granted AND w.lockable_object_type = 'relation' AND ${CONFLICTS}
    ORDER BY waiting_seconds DESC, waiting_pid, blocking_pid
    LIMIT 100`,
  );
}

/**
 * Provisioned: stl_commit_stats, the leader's row (node -1) per commit, with its queue times.
 * Serverless: sys_transaction_history (superuser only) has commit start and end but no queue.
 */
export function commitSummaryStatement(kind: WarehouseKind, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'commit-summary',
        sql`
      SELECT COUNT(*) AS commits,
             AVG(DATEDIFF(ms, c.startqueue, c.startwork)) / 1000.0 AS avg_queue_seconds,
             MAX(DATEDIFF(ms, c.startqueue, c.startwork)) / 1000.0 AS max_queue_seconds,
             COALESCE(AVG(DATEDIFF(ms, c.startwork, c.endtime)), 0) / 1000.0 AS avg_commit_seconds,
             COALESCE(MAX(DATEDIFF(ms, c.startwork, c.endtime)), 0) / 1000.0 AS max_commit_seconds,
             MAX(c.queuelen) AS max_queue_length
      FROM stl_commit_stats c
      WHERE c.node = -1 AND c.startqueue >= CAST(:since AS TIMESTAMP)`,
        { since },
      )
    : statement(
        'commit-summary',
        sql`
      SELECT COUNT(*) AS commits, CAST(NULL AS FLOAT8) AS avg_queue_seconds, CAST(NULL AS FLOAT8) AS max_queue_seconds,
             COALESCE(AVG(DATEDIFF(ms, t.commit_start_time, t.commit_end_time)), 0) / 1000.0 AS avg_commit_seconds,
             COALESCE(MAX(DATEDIFF(ms, t.commit_start_time, t.commit_end_time)), 0) / 1000.0 AS max_commit_seconds,
             CAST(NULL AS INTEGER) AS max_queue_length
      FROM sys_transaction_history t
      WHERE t.status = 'committed' AND t.commit_start_time >= CAST(:since AS TIMESTAMP)`,
        { since },
      );
}

export function worstCommitsStatement(kind: WarehouseKind, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'worst-commits',
        sql`
      SELECT c.xid AS xid, TRIM(COALESCE(u.usename, '')) AS user_name, c.startqueue AS queued_at,
             DATEDIFF(ms, c.startqueue, c.startwork) / 1000.0 AS queue_seconds,
             DATEDIFF(ms, c.startwork, c.endtime) / 1000.0 AS commit_seconds, c.queuelen AS queue_length
      FROM stl_commit_stats c
      LEFT JOIN (SELECT xid, MIN(userid) AS userid FROM stl_query GROUP BY xid) q ON q.xid = c.xid
      LEFT JOIN pg_user u ON u.usesysid = q.userid
      WHERE c.node = -1 AND c.startqueue >= CAST(:since AS TIMESTAMP)
      ORDER BY queue_seconds DESC, commit_seconds DESC, xid
      LIMIT ${String(WORST_COMMITS_CAP)}`,
        { since },
      )
    : statement(
        'worst-commits',
        sql`
      SELECT t.transaction_id AS xid, TRIM(COALESCE(u.usename, '')) AS user_name, t.commit_start_time AS queued_at,
             CAST(NULL AS FLOAT8) AS queue_seconds,
             DATEDIFF(ms, t.commit_start_time, t.commit_end_time) / 1000.0 AS commit_seconds, CAST(NULL AS INTEGER) AS queue_length
      FROM sys_transaction_history t
      LEFT JOIN pg_user u ON u.usesysid = t.user_id
      WHERE t.status = 'committed' AND t.commit_start_time >= CAST(:since AS TIMESTAMP)
      ORDER BY commit_seconds DESC, xid
      LIMIT ${String(WORST_COMMITS_CAP)}`,
        { since },
      );
}

/**
 * Load errors name their table through the catalogue (pg_class, pg_namespace), not svv_table_info:
 * "The SVV_TABLE_INFO view doesn't return any information for empty tables"
 * (https://docs.aws.amazon.com/redshift/latest/dg/r_SVV_TABLE_INFO.html), and a COPY whose every
 * row was rejected leaves its table empty: exactly the load an operator asks about. The catalogue
 * also needs no superuser-only view.
 */
export function loadErrorsStatement(kind: WarehouseKind, schema: string, since: string): SqlStatement {
  return kind === 'provisioned'
    ? statement(
        'load-errors',
        sql`
      SELECT e.query AS query_id, e.starttime AS time, TRIM(n.nspname) AS schema, TRIM(c.relname) AS table_name,
             TRIM(e.filename) AS file_name, e.line_number AS line_number, TRIM(e.colname) AS column_name,
             TRIM(e.type) AS column_type, e.err_code AS error_code, TRIM(e.err_reason) AS error_message,
             LEFT(TRIM(e.raw_field_value), 1024) AS raw_value
      FROM stl_load_errors e
      LEFT JOIN pg_class c ON c.oid = e.tbl
      LEFT JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE e.starttime >= CAST(:since AS TIMESTAMP) AND n.nspname = :schema
      ORDER BY e.starttime DESC, e.query DESC, e.line_number
      LIMIT ${String(LOAD_ERRORS_CAP)}`,
        { schema, since },
      )
    : statement(
        'load-errors',
        sql`
      SELECT e.query_id AS query_id, e.start_time AS time, TRIM(n.nspname) AS schema, TRIM(c.relname) AS table_name,
             TRIM(e.file_name) AS file_name, e.line_number AS line_number, TRIM(e.column_name) AS column_name,
             TRIM(e.column_type) AS column_type, e.error_code AS error_code, TRIM(e.error_message) AS error_message,
             '' AS raw_value
      FROM sys_load_error_detail e
      LEFT JOIN pg_class c ON c.oid = e.table_id
      LEFT JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE e.start_time >= CAST(:since AS TIMESTAMP) AND n.nspname = :schema
      ORDER BY e.start_time DESC, e.query_id DESC, e.line_number
      LIMIT ${String(LOAD_ERRORS_CAP)}`,
        { schema, since },
      );
}
