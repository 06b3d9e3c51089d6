import type { AthenaCostStoreOptions } from '../../src/gateways/cost/athena/athena-cost-store.js';
import { sumBy } from '../../src/gateways/cost/embedded/embedded-cost-store.js';
import { generateLineItems, type CurLineItem } from '../../src/gateways/cost/embedded/line-items.js';
import type { ErrorReply, QueryScript, RecordedQuery } from './athena-standin.js';

/**
 * The Cost and Usage Report table behind the Athena stand-in: CUR 1 or CUR 2.0, holding the
 * generated bill's line items, with its information_schema columns and its refresh-status table.
 */

const QUOTED_DAY = /^'(\d{4}-\d{2}-\d{2})'$/;
const QUOTED_TEXT = /^'((?:[^']|'')*)'$/;

/** The CUR table a stand-in serves: the version decides its columns and partitions. */
export interface StandinCurTable {
  tenantId: string;
  table: string;
  /** 1: legacy CUR (one column per tag, partitions year/month); 2: CUR 2.0 (resource_tags map, billing_period). */
  version?: 1 | 2;
  /** The environment tag's key, as CUR 2.0 names it (default user_environment_id). */
  environmentTag?: string;
  /** @deprecated CUR 1 column name; the tag key without `resource_tags_` is what counts. */
  environmentColumn?: string;
  /** What cost_and_usage_data_status holds; null: the table does not exist. Default READY. */
  status?: 'READY' | 'UPDATING' | null;
  pageSize?: number;
}

const COMMON_COLUMNS = [
  'identity_line_item_id',
  'line_item_usage_start_date',
  'line_item_product_code',
  'line_item_usage_type',
  'line_item_unblended_cost',
];

/** The table's columns as information_schema lists them (Glue keeps names in lower case). */
export function standinColumns(table: StandinCurTable): string[] {
  const tag = environmentTagOf(table);
  return (table.version ?? 1) === 2
    ? [...COMMON_COLUMNS, 'resource_tags', 'billing_period']
    : [...COMMON_COLUMNS, `resource_tags_${tag}`, 'resource_tags_user_team', 'year', 'month'];
}

const environmentTagOf = (table: StandinCurTable) =>
  table.environmentTag ?? table.environmentColumn?.replace(/^resource_tags_/, '') ?? 'user_environment_id';

const failed = (reason: string): QueryScript => ({ outcome: 'FAILED', reason });

/**
 * A column the SQL names that this version's table does not have: Athena fails the query at
 * analysis with COLUMN_NOT_FOUND (after StartQueryExecution succeeded).
 */
function missingColumn(sql: string, version: 1 | 2): string | undefined {
  const code = sql.replace(/^--.*$/gm, '').replace(/'(?:[^']|'')*'/g, "''");
  const identifiers = [...code.matchAll(/"?\b([a-z_][a-z0-9_]*)\b"?/g)].map((match) => match[1]!);
  const otherVersion = version === 2 ? /^(resource_tags_\w+|year|month)$/ : /^(resource_tags|billing_period)$/;
  return identifiers.find((name) => otherVersion.test(name));
}

/**
 * The billing months a query's partition predicate selects, as the stand-in's partitions are
 * named: CUR 2.0 billing_period='YYYY-MM'; CUR 1 year='YYYY' and month unpadded ('9'), as the
 * integration writes its S3 paths. Undefined when the query has no partition predicate.
 */
function selectedMonths(sql: string, version: 1 | 2): Set<string> | undefined {
  if (version === 2) {
    const list = /billing_period IN \(([^)]*)\)/.exec(sql)?.[1];
    return list === undefined ? undefined : new Set([...list.matchAll(/'(\d{4}-\d{2})'/g)].map((match) => match[1]!));
  }
  const pairs = [...sql.matchAll(/year = '(\d{4})' AND month IN \(([^)]*)\)/g)];
  if (pairs.length === 0) return undefined;
  const months = new Set<string>();
  for (const [, year, list] of pairs) {
    for (const [, value] of list!.matchAll(/'(\d{1,2})'/g)) {
      if (value === String(Number(value))) months.add(`${year}-${value!.padStart(2, '0')}`);
    }
  }
  return months;
}

/**
 * Answers the adapter's CUR queries from the generated bill of `tenantId`'s environments, as a
 * CUR 1 or a CUR 2.0 table holding the same line items would. It refuses what Athena refuses
 * (a column of the other version: COLUMN_NOT_FOUND; the status table when it does not exist:
 * TABLE_NOT_FOUND), and what this project forbids itself: a question without a partition
 * predicate (it would scan the whole report). Line items outside the selected partitions are
 * not read, as Athena would not read them. The environment must be the tag, compared with a
 * parameter; from and to come as quoted literals.
 */
export function curAnswerer(expect: StandinCurTable) {
  const version = expect.version ?? 1;
  const tag = environmentTagOf(expect);
  const environmentFilter =
    version === 2
      ? `WHERE element_at(resource_tags, '${tag.replaceAll("'", "''")}') = ?`
      : `WHERE "resource_tags_${tag}" = ?`;
  return (query: RecordedQuery): QueryScript | ErrorReply => {
    const invalid = (message: string): ErrorReply => ({ type: 'InvalidRequestException', message });
    const question = /^-- cost-question: ([a-z-]+)\n/.exec(query.sql)?.[1];
    if (!question) return invalid('unrecognised query');
    if (question === 'table-columns') {
      const [schema, table] = query.parameters;
      if (schema !== "'billing'" || table !== `'${expect.table}'`)
        return { columns: [{ name: 'column_name', type: 'varchar' }], rows: [] };
      return {
        columns: [{ name: 'column_name', type: 'varchar' }],
        rows: standinColumns(expect).map((name) => [name]),
      };
    }
    if (question === 'data-status') {
      const status = expect.status === undefined ? 'READY' : expect.status;
      if (status === null)
        return failed(
          "TABLE_NOT_FOUND: line 2:20: Table 'awsdatacatalog.billing.cost_and_usage_data_status' does not exist",
        );
      return { columns: [{ name: 'status', type: 'varchar' }], rows: [[status]] };
    }
    const missing = missingColumn(query.sql, version);
    if (missing)
      return failed(
        `COLUMN_NOT_FOUND: Column '${missing}' cannot be resolved or requester is not authorized to access requested resources`,
      );
    if (!query.sql.includes(`FROM "${expect.table}"`)) return invalid('wrong table');
    if (!query.sql.includes(environmentFilter)) return invalid('not scoped to an environment');
    const months = selectedMonths(query.sql, version);
    if (!months) return failed('stand-in: no partition predicate, the query would scan every month of the report');
    if ((query.sql.match(/\?/g) ?? []).length !== query.parameters.length) return invalid('parameter count mismatch');
    const [environment, from, to] = query.parameters;
    const environmentId = QUOTED_TEXT.exec(environment ?? '')?.[1]?.replaceAll("''", "'");
    const fromDay = QUOTED_DAY.exec(from ?? '')?.[1];
    const toDay = QUOTED_DAY.exec(to ?? '')?.[1];
    if (environmentId === undefined || !fromDay || !toDay)
      return invalid(`bad parameters ${JSON.stringify(query.parameters)}`);
    const items = generateLineItems({ tenantId: expect.tenantId, environmentId }, fromDay, toDay).filter((item) =>
      months.has(item.day.slice(0, 7)),
    );
    const answer = (names: string[], key: (item: CurLineItem) => string[], subset = items): QueryScript => ({
      columns: [...names.map((name) => ({ name, type: 'varchar' })), { name: 'cost', type: 'double' }],
      rows: sumBy(subset, key).map((row) => [...row.key, row.cost]),
      pageSize: expect.pageSize,
    });
    switch (question) {
      case 'cost-by-service':
        return answer(['service'], (item) => [item.productCode]);
      case 'daily-trend':
        return answer(['period'], (item) => [item.day]);
      case 'monthly-trend':
        return answer(['period'], (item) => [item.day.slice(0, 7)]);
      case 'redshift-breakdown':
        if (!query.sql.includes("line_item_product_code = 'AmazonRedshift'"))
          return invalid('breakdown not filtered to Redshift');
        return answer(
          ['usage_type'],
          (item) => [item.usageType],
          items.filter((item) => item.productCode === 'AmazonRedshift'),
        );
      case 'top-drivers': {
        const limit = Number(/LIMIT (\d+)$/.exec(query.sql)?.[1]);
        const all = answer(['service', 'usage_type'], (item) => [item.productCode, item.usageType]);
        const rows = [...(all.rows ?? [])].sort((a, b) => Number(b[2]) - Number(a[2])).slice(0, limit);
        return { ...all, rows };
      }
      case 'daily-by-service':
        return answer(['day', 'service'], (item) => [item.day, item.productCode]);
      case 'daily-total':
        return answer(['day'], (item) => [item.day]);
      default:
        return invalid(`unknown question ${question}`);
    }
  };
}

/** Options of an Athena cost store on the stand-in's table billing.cur, polling on the virtual `clock`. */
export function standinStoreOptions(url: string, clock: { now: number; sleeps?: number[] }): AthenaCostStoreOptions {
  return {
    region: 'us-east-1',
    database: 'billing',
    table: 'cur',
    workGroup: 'analytics',
    outputLocation: 's3://cost-results/athena/',
    endpoint: url,
    credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'standin-secret' },
    now: () => clock.now,
    sleep: async (ms) => {
      clock.sleeps?.push(ms);
      clock.now += ms;
    },
  };
}
