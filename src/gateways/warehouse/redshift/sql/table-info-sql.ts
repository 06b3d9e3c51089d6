import type { SqlStatement } from '../statement-runner.js';
import { sql } from './warehouse-sql.js';

/**
 * svv_table_info answers the table questions on provisioned clusters and serverless workgroups
 * alike. Ghost rows are stored rows minus the rows the planner estimates as visible; the
 * percentage is computed by the mapper so both adapters share one formula (table-health.ts).
 */

const TABLE_COLUMNS = sql`
  TRIM(schema) AS schema,
  TRIM("table") AS table_name,
  COALESCE(size, 0) AS size_mb,
  COALESCE(tbl_rows, 0) AS tbl_rows,
  COALESCE(estimated_visible_rows, tbl_rows, 0) AS estimated_visible_rows,
  COALESCE(unsorted, 0) AS unsorted_pct,
  COALESCE(stats_off, 0) AS stats_off`;

export function storageStatement(schema: string): SqlStatement {
  return {
    name: 'warehouse-watch:storage',
    sql: sql`
      SELECT ${TABLE_COLUMNS}, TRIM(diststyle) AS dist_style, COALESCE(TRIM(sortkey1), '') AS sortkey1
      FROM svv_table_info
      WHERE schema = :schema
      ORDER BY size_mb DESC, table_name`,
    parameters: { schema },
  };
}

export function vacuumCandidatesStatement(
  schema: string,
  unsortedThreshold: number,
  statsOffThreshold: number,
): SqlStatement {
  return {
    name: 'warehouse-watch:vacuum-candidates',
    sql: sql`
      SELECT ${TABLE_COLUMNS}
      FROM svv_table_info
      WHERE schema = :schema
        AND (COALESCE(unsorted, 0) > CAST(:unsorted_threshold AS FLOAT8)
          OR COALESCE(stats_off, 0) > CAST(:stats_off_threshold AS FLOAT8))
      ORDER BY unsorted_pct DESC, stats_off DESC, table_name`,
    parameters: { schema, unsorted_threshold: unsortedThreshold, stats_off_threshold: statsOffThreshold },
  };
}

/** Unsorted rows over the schema, weighted by row count (a huge table matters more than a tiny one). */
export function unsortedPctStatement(schema: string): SqlStatement {
  return {
    name: 'warehouse-watch:metric:unsorted_pct',
    sql: sql`
      SELECT COALESCE(SUM(COALESCE(unsorted, 0) * tbl_rows) / NULLIF(SUM(tbl_rows), 0), 0) AS value
      FROM svv_table_info
      WHERE schema = :schema`,
    parameters: { schema },
  };
}
