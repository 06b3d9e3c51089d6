import { AthenaClient } from '@aws-sdk/client-athena';
import {
  anomalyWindow,
  detectAnomalies,
  fillTrend,
  forecastMonthEnd,
  forecastWindow,
  largestFirst,
} from '../analysis.js';
import {
  anomalyQuestion,
  dateRangeQuestion,
  forecastQuestion,
  topDriversQuestion,
  trendQuestion,
  type CostPort,
  type EnvironmentScope,
} from '../port.js';
import { runAthenaQuery, type AthenaRow, type AthenaRunnerOptions } from './athena-runner.js';
import { environmentTagging } from './cur-layout.js';
import { checkIdentifier, curQueries, type CurQuery, type CurTable } from './cur-sql.js';
import { curLayoutResolver, dataStatusReader, type CurVersionSetting } from './cur-table-state.js';

/**
 * The cost port over a Cost and Usage Report table in Athena, CUR 1 or CUR 2.0 (configured, or
 * detected once from the table's columns). Each question becomes one aggregate query over the
 * months it asks about (cur-sql.ts); the rows go through the same shared arithmetic the embedded
 * store uses. Credentials come from the SDK's default chain unless a test passes static ones.
 */

export interface AthenaCostStoreOptions {
  region: string;
  database: string;
  table: string;
  workGroup: string;
  /** s3://bucket/prefix/ where Athena writes query results. */
  outputLocation: string;
  /** CUR 1 column with the environment tag (default: resource_tags_ + environmentTag, else resource_tags_user_environment_id). */
  environmentColumn?: string;
  /** CUR 2.0 `resource_tags` key of the environment tag (default: environmentColumn without resource_tags_). */
  environmentTag?: string;
  /** 1, 2, or 'auto' (default): detected from the table's columns on the first question. */
  curVersion?: CurVersionSetting;
  /** The report's refresh-status table (default cost_and_usage_data_status); null: none. */
  statusTable?: string | null;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  timeoutMs?: number;
  firstPollMs?: number;
  maxPollMs?: number;
  pageSize?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const text = (row: AthenaRow, column: string) => String(row[column] ?? '');
const amount = (row: AthenaRow) => Number(row['cost'] ?? 0);

export function createAthenaCostStore(options: AthenaCostStoreOptions): CostPort {
  const table = checkIdentifier(options.table, 'the CUR table');
  const tagging = environmentTagging(options);
  if (options.environmentColumn !== undefined) checkIdentifier(options.environmentColumn, 'the environment column');
  const statusTable =
    options.statusTable === undefined ? 'cost_and_usage_data_status' : (options.statusTable ?? undefined);
  if (statusTable) checkIdentifier(statusTable, 'the status table');
  if (!/^s3:\/\/[^/]+/.test(options.outputLocation)) throw new Error('outputLocation must be an s3:// URL');
  const client = new AthenaClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  const runner: AthenaRunnerOptions = {
    client,
    database: options.database,
    workGroup: options.workGroup,
    outputLocation: options.outputLocation,
    timeoutMs: options.timeoutMs,
    firstPollMs: options.firstPollMs,
    maxPollMs: options.maxPollMs,
    pageSize: options.pageSize,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? realSleep,
  };
  const run = (query: CurQuery) => runAthenaQuery(runner, query.sql, query.parameters);
  const layout = curLayoutResolver(options.curVersion ?? 'auto', tagging, { database: options.database, table }, run);
  const cur = async (): Promise<CurTable> => ({ table, ...(await layout()) });
  const range = (scope: EnvironmentScope, window: { from: string; to: string }) => ({
    environmentId: scope.environmentId,
    ...window,
  });

  return {
    async costByService(scope, input) {
      const q = dateRangeQuestion.parse(input);
      const rows = await run(curQueries.costByService(await cur(), range(scope, q)));
      return largestFirst(
        rows.map((row) => ({ service: text(row, 'service'), cost: amount(row) })),
        (row) => row.service,
      );
    },

    async costTrend(scope, input) {
      const q = trendQuestion.parse(input);
      const rows = await run(curQueries.trend(await cur(), range(scope, q), q.granularity));
      return fillTrend(
        rows.map((row) => ({ period: text(row, 'period'), cost: amount(row) })),
        q.from,
        q.to,
        q.granularity,
      );
    },

    async redshiftBreakdown(scope, input) {
      const q = dateRangeQuestion.parse(input);
      const rows = await run(curQueries.redshiftBreakdown(await cur(), range(scope, q)));
      return largestFirst(
        rows.map((row) => ({ usageType: text(row, 'usage_type'), cost: amount(row) })),
        (row) => row.usageType,
      );
    },

    async topCostDrivers(scope, input) {
      const q = topDriversQuestion.parse(input);
      const rows = await run(curQueries.topDrivers(await cur(), range(scope, q), q.limit));
      return largestFirst(
        rows.map((row) => ({ service: text(row, 'service'), usageType: text(row, 'usage_type'), cost: amount(row) })),
        (row) => `${row.service}/${row.usageType}`,
      ).slice(0, q.limit);
    },

    async anomalies(scope, input) {
      const q = anomalyQuestion.parse(input);
      const rows = await run(curQueries.dailyByService(await cur(), range(scope, anomalyWindow(q))));
      return detectAnomalies(
        rows.map((row) => ({ day: text(row, 'day'), service: text(row, 'service'), cost: amount(row) })),
        q,
      );
    },

    async forecastMonthEnd(scope, input) {
      const q = forecastQuestion.parse(input);
      const rows = await run(curQueries.dailyTotal(await cur(), range(scope, forecastWindow(q.asOf))));
      return forecastMonthEnd(
        rows.map((row) => ({ day: text(row, 'day'), cost: amount(row) })),
        q.asOf,
      );
    },

    dataStatus: dataStatusReader(statusTable, run, runner.now),
  };
}
