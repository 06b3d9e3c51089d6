import type { RedshiftDataClient } from '@aws-sdk/client-redshift-data';
import type { EnvironmentResolver, RedshiftTarget } from '../environments.js';
import { BUILTIN_METRIC_IDS, isBuiltinMetric } from '../metric-catalogue.js';
import {
  InvalidMetricRequestError,
  MetricNotSupportedError,
  SLOW_QUERY_THRESHOLD_SECONDS,
  SPILL_LOOKBACK_HOURS,
  SPILL_TOP_N,
  systemClock,
  TABLE_ALERT_LOOKBACK_DAYS,
  UnknownClusterError,
  MetricNoDataError,
  UnknownMetricError,
  VACUUM_STATS_OFF_THRESHOLD_PCT,
  VACUUM_UNSORTED_THRESHOLD_PCT,
  type Clock,
  type WarehouseGateway,
} from '../port.js';
import { createRedshiftDataClient, type RedshiftDataClientOptions } from './data-client.js';
import { queryVisibilityStatement, visibilityCache, visibilityFrom } from './query-visibility.js';
import { redshiftDiagnostics } from './redshift-diagnostics.js';
import { numberOf, toRedshiftTimestamp, type ResultRow } from './result-rows.js';
import {
  clusterHealthFrom,
  slowQueryFrom,
  spillQueryFrom,
  storageTableFrom,
  tableAlertFrom,
  vacuumCandidateFrom,
} from './row-mappers.js';
import { provisionedSql } from './sql/provisioned-sql.js';
import { serverlessSql } from './sql/serverless-sql.js';
import { storageStatement, vacuumCandidatesStatement } from './sql/table-info-sql.js';
import { isUnsupported, type KindSql } from './sql/warehouse-sql.js';
import { defaultBackoff, realSleep, runStatement, type PollBackoff, type SqlStatement } from './statement-runner.js';
import { unavailableFrom } from './unavailable-errors.js';
import { systemViewAccessCheck } from './system-view-access.js';
import {
  alertLogStatement,
  finishedQueriesStatement,
  tableStatsStatement,
  wlmQueuesStatement,
} from './sql/sync-sources-sql.js';
import { alertLogEntryFrom, finishedQueryFrom, tableStatsFrom, wlmQueueFrom } from './sync-row-mappers.js';

/**
 * The production adapter: each question is one statement against the system views of the
 * environment's cluster (provisioned) or workgroup (serverless), through the Redshift Data API.
 */

export interface RedshiftGatewayOptions {
  environments: EnvironmentResolver;
  /** One client per region; defaults to createRedshiftDataClient(region, clientOptions). */
  clientFor?: (region: string) => Pick<RedshiftDataClient, 'send'>;
  clientOptions?: RedshiftDataClientOptions;
  /** Overall bound per statement, from ExecuteStatement to the last page; default 30 s. */
  statementTimeoutMs?: number;
  backoff?: PollBackoff;
  sleep?: (ms: number) => Promise<void>;
  now?: Clock;
}

const HOUR_MS = 3_600_000;

export function createRedshiftGateway(options: RedshiftGatewayOptions): WarehouseGateway {
  const now = options.now ?? systemClock;
  const clients = new Map<string, Pick<RedshiftDataClient, 'send'>>();
  const clientFor =
    options.clientFor ??
    ((region: string) => {
      let client = clients.get(region);
      if (!client) clients.set(region, (client = createRedshiftDataClient(region, options.clientOptions)));
      return client;
    });

  const targetOf = (envId: string): RedshiftTarget => {
    const target = options.environments.resolve(envId);
    if (target.kind === 'simulated') {
      throw new Error(
        `environment ${envId} resolves to the simulated warehouse; the Redshift adapter needs WAREHOUSE_ENVIRONMENTS`,
      );
    }
    return target;
  };
  const sqlFor = (target: RedshiftTarget): KindSql => (target.kind === 'provisioned' ? provisionedSql : serverlessSql);
  const clusterIdOf = (target: RedshiftTarget) =>
    target.kind === 'provisioned' ? target.cluster_identifier : target.workgroup_name;
  const since = (hoursBack: number) => toRedshiftTimestamp(new Date(now().getTime() - hoursBack * HOUR_MS));

  const run = async (envId: string, target: RedshiftTarget, statement: SqlStatement): Promise<ResultRow[]> => {
    try {
      return await runStatement(target, statement, {
        client: clientFor(target.region),
        timeoutMs: options.statementTimeoutMs ?? 30_000,
        backoff: options.backoff ?? defaultBackoff,
        sleep: options.sleep ?? realSleep,
        now,
      });
    } catch (error) {
      throw unavailableFrom(error, envId, target, statement.name.replace(/^warehouse-watch:/, ''));
    }
  };

  /** Resolve, build the statement for the target's kind, run it, map every row. */
  const ask = async <T>(
    envId: string,
    statementFor: (sql: KindSql, target: RedshiftTarget) => SqlStatement,
    mapRow: (clusterId: string) => (row: ResultRow) => T,
  ) => {
    const target = targetOf(envId);
    const rows = await run(envId, target, statementFor(sqlFor(target), target));
    return rows.map(mapRow(clusterIdOf(target)));
  };

  const rememberedVisibility = visibilityCache(now);

  return {
    async cluster(envId) {
      const target = targetOf(envId);
      const rows = await run(envId, target, sqlFor(target).clusterStorage());
      return clusterHealthFrom(rows, clusterIdOf(target), target.kind);
    },
    slowQueries: (envId) => ask(envId, (sql) => sql.slowQueries(SLOW_QUERY_THRESHOLD_SECONDS), slowQueryFrom),
    spillQueries: (envId) =>
      ask(envId, (sql) => sql.spillQueries(since(SPILL_LOOKBACK_HOURS), SPILL_TOP_N), spillQueryFrom),
    vacuumCandidates: (envId) =>
      ask(
        envId,
        (_sql, target) =>
          vacuumCandidatesStatement(target.schema, VACUUM_UNSORTED_THRESHOLD_PCT, VACUUM_STATS_OFF_THRESHOLD_PCT),
        vacuumCandidateFrom,
      ),
    tableAlerts: (envId) =>
      ask(
        envId,
        (sql, target) => sql.tableAlerts(target.schema, since(TABLE_ALERT_LOOKBACK_DAYS * 24)),
        tableAlertFrom,
      ),
    storage: (envId) => ask(envId, (_sql, target) => storageStatement(target.schema), storageTableFrom),

    async readMetric({ envId, clusterId, metric, windowMinutes }) {
      const target = targetOf(envId);
      if (!isBuiltinMetric(metric)) throw new UnknownMetricError(metric, BUILTIN_METRIC_IDS);
      if (!Number.isInteger(windowMinutes) || windowMinutes < 1) {
        throw new InvalidMetricRequestError(`window must be a positive whole number of minutes, got ${windowMinutes}`);
      }
      // An environment maps to exactly one cluster or workgroup.
      if (clusterId !== undefined && clusterId !== clusterIdOf(target)) {
        throw new UnknownClusterError(envId, clusterId, [clusterIdOf(target)]);
      }
      const statement = sqlFor(target).metric(metric, {
        since: since(windowMinutes / 60),
        windowSeconds: windowMinutes * 60,
        schema: target.schema,
      });
      if (isUnsupported(statement)) throw new MetricNotSupportedError(metric, statement.unsupported);
      const [row] = await run(envId, target, statement);
      // No row, or no value in it, is no reading: never a 0 a rule would compare (on_no_data decides).
      if (row === undefined || row['value'] === null || row['value'] === undefined)
        throw new MetricNoDataError(envId, metric, windowMinutes);
      return numberOf(row, 'value');
    },

    async queryVisibility(envId) {
      const target = targetOf(envId);
      return rememberedVisibility(envId, async () =>
        visibilityFrom(await run(envId, target, queryVisibilityStatement(target.kind))),
      );
    },

    finishedQueries: (envId, { from, to }) => ask(envId, () => finishedQueriesStatement(from, to), finishedQueryFrom),
    tableStats: (envId) => ask(envId, (_sql, target) => tableStatsStatement(target.schema), tableStatsFrom),
    wlmQueues: (envId) => ask(envId, () => wlmQueuesStatement(), wlmQueueFrom),
    async alertLog(envId, { from, to }) {
      // STL_ALERT_EVENT_LOG exists on provisioned clusters only.
      if (targetOf(envId).kind === 'serverless') return [];
      return ask(envId, (_sql, target) => alertLogStatement(target.schema, from, to), alertLogEntryFrom);
    },

    systemViewAccess: systemViewAccessCheck({ targetOf, run, now }),

    ...redshiftDiagnostics({ targetOf, run, since }),
  };
}
