import type {
  ClusterView,
  SlowQueriesView,
  SpillView,
  StorageView,
  TableAlertsView,
  VacuumView,
  WarehouseAnswerBody,
} from '../src/contract/warehouse.js';
import Router, { type RouterContext } from '@koa/router';
import type { EnvironmentResolver } from '../src/gateways/warehouse/environments.js';
import {
  isSystemViewPermissionDenied,
  isUnknownEnvironment,
  isWarehouseUnavailable,
  SLOW_QUERY_THRESHOLD_SECONDS,
  SPILL_LOOKBACK_HOURS,
  SPILL_TOP_N,
  systemClock,
  TABLE_ALERT_LOOKBACK_DAYS,
  VACUUM_STATS_OFF_THRESHOLD_PCT,
  VACUUM_UNSORTED_THRESHOLD_PCT,
  type Clock,
  type WarehouseGateway,
} from '../src/gateways/warehouse/port.js';
import { ok, okBare } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { HttpProblem, serviceUnavailable } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';

/**
 * GET /warehouse/*: live warehouse health (SPEC "Warehouse health"). No parameters: the cluster
 * and schema come from the token's env_id. Every request reads the warehouse; nothing is cached
 * here (the gateway remembers the monitoring user's visibility, which changes only with grants).
 * Response shapes are documented in docs-warehouse.md.
 */

export interface WarehouseRouteDeps {
  gateway: WarehouseGateway;
  environments: EnvironmentResolver;
  now?: Clock;
}

/** Our typed failures → problems; anything else stays a 500 with no internals exposed. */
function warehouseProblem(error: unknown): unknown {
  // A missing grant: name the refused views and the grants, never answer an empty list (docs/warehouse.md).
  if (isSystemViewPermissionDenied(error)) {
    return new HttpProblem(503, 'Service Unavailable', error.message, undefined, {
      reason: error.reason,
      permission_denied: error.views,
      grants: error.grants,
    });
  }
  if (isWarehouseUnavailable(error)) return serviceUnavailable(error.message);
  if (isUnknownEnvironment(error)) return new HttpProblem(404, 'Not Found', error.message);
  return error;
}

export function warehouseRoutes(deps: WarehouseRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const now = deps.now ?? systemClock;

  const { gateway } = deps;

  /**
   * Resolves the caller's environment (404 if unknown), asks one question, stamps generated_at.
   * Answers drawn from the query views (`fromQueryViews`) also say whose queries they could see.
   * Slow queries and storage, whose top-level fields SPEC.md names, answer them `bare` (no envelope).
   */
  const answer =
    <T>(
      question: (envId: string) => Promise<T>,
      shape: (result: T) => Record<string, unknown>,
      fromQueryViews = false,
      bare = false,
    ) =>
    async (ctx: RouterContext<AppState>) => {
      const { envId } = ctx.state.principal;
      try {
        deps.environments.resolve(envId);
        const [result, visibility] = await Promise.all([
          question(envId),
          fromQueryViews ? gateway.queryVisibility(envId) : undefined,
        ]);
        (bare ? okBare : ok)(ctx, {
          ...shape(result),
          ...(visibility ? { visibility } : {}),
          generated_at: now().toISOString(),
        });
      } catch (error) {
        throw warehouseProblem(error);
      }
    };

  // The cluster and schema come from the token: these routes take no query parameters.
  const read = [requires('warehouse:read'), queryParameters([])] as const;

  router.get(
    '/warehouse/cluster',
    ...read,
    answer(
      (envId) => gateway.cluster(envId),
      (health): WarehouseAnswerBody<ClusterView> => ({
        clusters: health.clusters,
        nodes: health.nodes,
        totals: health.totals,
      }),
      true,
    ),
  );
  router.get(
    '/warehouse/queries/slow',
    ...read,
    answer(
      (envId) => gateway.slowQueries(envId),
      (queries): WarehouseAnswerBody<SlowQueriesView> => ({ queries, threshold_seconds: SLOW_QUERY_THRESHOLD_SECONDS }),
      true,
      true,
    ),
  );
  router.get(
    '/warehouse/queries/spill',
    ...read,
    answer(
      (envId) => gateway.spillQueries(envId),
      (queries): WarehouseAnswerBody<SpillView> => ({
        queries,
        lookback_hours: SPILL_LOOKBACK_HOURS,
        limit: SPILL_TOP_N,
      }),
      true,
    ),
  );
  router.get(
    '/warehouse/tables/vacuum',
    ...read,
    answer(
      (envId) => gateway.vacuumCandidates(envId),
      (tables): WarehouseAnswerBody<VacuumView> => ({
        tables,
        thresholds: { unsorted_pct: VACUUM_UNSORTED_THRESHOLD_PCT, stats_off: VACUUM_STATS_OFF_THRESHOLD_PCT },
      }),
    ),
  );
  router.get(
    '/warehouse/tables/alerts',
    // stl_alert_event_log and sys_query_detail are query views too: restricted, they hold our own queries' alerts only.
    ...read,
    answer(
      (envId) => gateway.tableAlerts(envId),
      (alerts): WarehouseAnswerBody<TableAlertsView> => ({ alerts, lookback_days: TABLE_ALERT_LOOKBACK_DAYS }),
      true,
    ),
  );
  router.get(
    '/warehouse/storage',
    ...read,
    answer(
      (envId) => gateway.storage(envId),
      (tables): WarehouseAnswerBody<StorageView> => ({ tables }),
      false,
      true,
    ),
  );
  return router;
}
