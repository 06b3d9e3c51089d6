import { isoDay } from '../port.js';
import {
  checkIdentifier,
  environmentExpression,
  partitionPredicate,
  stringLiteral,
  type CurLayout,
} from './cur-layout.js';

/**
 * The SQL each cost question runs over the standard Cost and Usage Report table (CUR 1 or
 * CUR 2.0, cur-layout.ts). Identifiers (table, environment column) and the tag key come from
 * configuration only and are checked; values (environment id, dates) travel as Athena
 * ExecutionParameters, each a SQL literal the adapter formats from a validated value. Every
 * question carries its range's partition predicate. A leading comment names the question, which shows in
 * Athena's query history and lets the test stand-in recognise the query.
 */

export interface CurTable extends CurLayout {
  table: string;
}

export interface CurQuery {
  question: CurQuestionName;
  sql: string;
  parameters: string[];
}

export type CurQuestionName =
  | 'cost-by-service'
  | 'daily-trend'
  | 'monthly-trend'
  | 'redshift-breakdown'
  | 'top-drivers'
  | 'daily-by-service'
  | 'daily-total'
  | 'table-columns'
  | 'data-status';

export { checkIdentifier, stringLiteral };

/** Dates are validated again here so nothing but YYYY-MM-DD ever reaches the SQL text. */
const dayLiteral = (day: string): string => stringLiteral(isoDay.parse(day));

const COST = 'SUM(line_item_unblended_cost)';
const DAY = "date_format(line_item_usage_start_date, '%Y-%m-%d')";
const MONTH = "date_format(line_item_usage_start_date, '%Y-%m')";

function scoped(
  cur: CurTable,
  question: CurQuestionName,
  select: string,
  range: { environmentId: string; from: string; to: string },
  tail: string,
  extraFilter = '',
): CurQuery {
  const table = checkIdentifier(cur.table, 'the CUR table');
  const partitions = partitionPredicate(cur, range);
  const sql = [
    `-- cost-question: ${question}`,
    `SELECT ${select}`,
    `FROM "${table}"`,
    `WHERE ${environmentExpression(cur)} = ?`,
    ...(partitions ? [`  AND ${partitions}`] : []),
    '  AND line_item_usage_start_date >= CAST(? AS timestamp)',
    "  AND line_item_usage_start_date < CAST(? AS timestamp) + INTERVAL '1' DAY",
    ...(extraFilter ? [`  AND ${extraFilter}`] : []),
    tail,
  ].join('\n');
  return {
    question,
    sql,
    parameters: [stringLiteral(range.environmentId), dayLiteral(range.from), dayLiteral(range.to)],
  };
}

type Range = { environmentId: string; from: string; to: string };

export const curQueries = {
  costByService: (cur: CurTable, range: Range) =>
    scoped(
      cur,
      'cost-by-service',
      `line_item_product_code AS service, ${COST} AS cost`,
      range,
      'GROUP BY line_item_product_code',
    ),

  trend: (cur: CurTable, range: Range, granularity: 'daily' | 'monthly') => {
    const period = granularity === 'daily' ? DAY : MONTH;
    return scoped(
      cur,
      granularity === 'daily' ? 'daily-trend' : 'monthly-trend',
      `${period} AS period, ${COST} AS cost`,
      range,
      'GROUP BY 1 ORDER BY 1',
    );
  },

  redshiftBreakdown: (cur: CurTable, range: Range) =>
    scoped(
      cur,
      'redshift-breakdown',
      `line_item_usage_type AS usage_type, ${COST} AS cost`,
      range,
      'GROUP BY line_item_usage_type',
      "line_item_product_code = 'AmazonRedshift'",
    ),

  topDrivers: (cur: CurTable, range: Range, limit: number) => {
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new Error(`limit must be 1..50, got ${limit}`);
    return scoped(
      cur,
      'top-drivers',
      `line_item_product_code AS service, line_item_usage_type AS usage_type, ${COST} AS cost`,
      range,
      `GROUP BY line_item_product_code, line_item_usage_type\nORDER BY cost DESC, service, usage_type\nLIMIT ${limit}`,
    );
  },

  dailyByService: (cur: CurTable, range: Range) =>
    scoped(
      cur,
      'daily-by-service',
      `${DAY} AS day, line_item_product_code AS service, ${COST} AS cost`,
      range,
      'GROUP BY 1, 2',
    ),

  dailyTotal: (cur: CurTable, range: Range) =>
    scoped(cur, 'daily-total', `${DAY} AS day, ${COST} AS cost`, range, 'GROUP BY 1'),
};

/**
 * The table's columns from Athena's information_schema: a metadata read that scans no report
 * data, run once to tell CUR 1 from CUR 2.0 when the version is not configured.
 */
export function tableColumnsQuery(database: string, table: string): CurQuery {
  return {
    question: 'table-columns',
    sql: [
      '-- cost-question: table-columns',
      'SELECT column_name FROM information_schema.columns',
      'WHERE table_schema = ? AND table_name = ?',
    ].join('\n'),
    // The Glue catalog keeps names in lower case.
    parameters: [stringLiteral(database.toLowerCase()), stringLiteral(table.toLowerCase())],
  };
}

/**
 * "select status from cost_and_usage_data_status": READY, or UPDATING while AWS rewrites the
 * report and a query may mix old and new line items.
 * https://docs.aws.amazon.com/cur/latest/userguide/create-manual-cur-table.html
 */
export function dataStatusQuery(statusTable: string): CurQuery {
  return {
    question: 'data-status',
    sql: [
      '-- cost-question: data-status',
      `SELECT status FROM "${checkIdentifier(statusTable, 'the status table')}"`,
    ].join('\n'),
    parameters: [],
  };
}
