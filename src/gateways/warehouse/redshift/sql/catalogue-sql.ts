import type { SqlStatement } from '../statement-runner.js';
import { sql } from './warehouse-sql.js';

/**
 * The catalogue questions: schemas, tables and columns of the environment's database, through the
 * SVV_REDSHIFT_* views (provisioned and serverless alike) and svv_table_info for sizes. They only
 * ever see the environment schema (the adapter answers nothing for another one), as the other
 * table questions do; the views list only what the monitoring user may read.
 */

export function schemasStatement(schema: string): SqlStatement {
  return {
    name: 'warehouse-watch:schemas',
    sql: sql`
      SELECT TRIM(s.schema_name) AS schema, TRIM(COALESCE(u.usename, '')) AS owner,
             COUNT(t.table_name) AS table_count, COALESCE(SUM(i.size), 0) AS size_mb
      FROM svv_redshift_schemas s
      LEFT JOIN pg_user u ON u.usesysid = s.schema_owner
      LEFT JOIN svv_redshift_tables t ON t.database_name = s.database_name AND t.schema_name = s.schema_name
      LEFT JOIN svv_table_info i ON i.schema = t.schema_name AND i."table" = t.table_name
      WHERE s.database_name = current_database() AND s.schema_name = :schema
      GROUP BY 1, 2
      ORDER BY 1`,
    parameters: { schema },
  };
}

export function tablesStatement(schema: string): SqlStatement {
  return {
    name: 'warehouse-watch:tables',
    sql: sql`
      SELECT TRIM(t.schema_name) AS schema, TRIM(t.table_name) AS table_name, TRIM(t.table_type) AS table_type,
             COALESCE(i.size, 0) AS size_mb, COALESCE(i.tbl_rows, 0) AS tbl_rows,
             COALESCE(TRIM(i.diststyle), '') AS dist_style, COALESCE(TRIM(i.sortkey1), '') AS sortkey1
      FROM svv_redshift_tables t
      LEFT JOIN svv_table_info i ON i.schema = t.schema_name AND i."table" = t.table_name
      WHERE t.database_name = current_database() AND t.schema_name = :schema
      ORDER BY table_name
      LIMIT 1000`,
    parameters: { schema },
  };
}

export function columnsStatement(schema: string, table: string): SqlStatement {
  return {
    name: 'warehouse-watch:columns',
    sql: sql`
      SELECT c.ordinal_position AS position, TRIM(c.column_name) AS column_name, TRIM(c.data_type) AS data_type,
             CASE WHEN UPPER(TRIM(c.is_nullable)) = 'NO' THEN 0 ELSE 1 END AS nullable,
             TRIM(COALESCE(c.encoding, '')) AS encoding,
             CASE WHEN c.distkey THEN 1 ELSE 0 END AS distkey, COALESCE(c.sortkey, 0) AS sortkey
      FROM svv_redshift_columns c
      WHERE c.database_name = current_database() AND c.schema_name = :schema AND c.table_name = :table
      ORDER BY c.ordinal_position
      LIMIT 1600`,
    parameters: { schema, table },
  };
}
