import type { MetricOverrides } from '../metrics/provider.js';
import {
  InvalidMetricRequestError,
  SLOW_QUERY_THRESHOLD_SECONDS,
  SPILL_LOOKBACK_HOURS,
  SPILL_TOP_N,
  TABLE_ALERT_LOOKBACK_DAYS,
  type ClusterHealth,
  type Clock,
  type StorageTotals,
  type WarehouseGateway,
} from '../port.js';
import { byUnsortedDescending, needsVacuumOrAnalyze, roundTo, vacuumRecommendation } from '../table-health.js';
import { alertEventsBetween, summarizeAlerts } from './alert-log.js';
import { clusterStorage, envLayout, snapshotAt, temporarySpillMb } from './cluster-state.js';
import { createSimulatorControl, type SimulatorControl } from './control.js';
import { simulatedMetricAt } from './metric-history.js';
import { simulatedDiagnostics } from './diagnostics/simulated-diagnostics.js';
import { simulatedSyncSources } from './sync-sources.js';
import { isExecutingAt, queriesOverlapping, queryTextOf } from './workload.js';

/**
 * The embedded warehouse: every env_id has its own simulated clusters with a live workload.
 * Each call recomputes its answer from the clock (nothing is cached), so answers are exact for
 * a given (env, instant) and change as time passes.
 */

export interface SimulatedWarehouse {
  gateway: WarehouseGateway;
  /** Pins and pauses; also the registry's MetricOverrides, so pinned values reach the evaluator. */
  control: SimulatorControl & MetricOverrides;
}

export interface SimulatedWarehouseOptions {
  now: Clock;
  /** Metric ids a pin may name; wire to the registry's ids() so registered metrics can be pinned. */
  knownMetrics?: () => readonly string[];
}

const HOUR = 3600;
const DAY = 86_400;

function totalsOf(summaries: readonly StorageTotals[]): StorageTotals {
  const capacity = summaries.reduce((sum, s) => sum + (s.capacity_gb ?? 0), 0);
  const used = roundTo(
    summaries.reduce((sum, s) => sum + s.used_gb, 0),
    2,
  );
  return {
    node_count: summaries.reduce((sum, s) => sum + s.node_count, 0),
    slices: summaries.reduce((sum, s) => sum + s.slices, 0),
    capacity_gb: capacity,
    used_gb: used,
    pct_used: capacity > 0 ? roundTo((used * 100) / capacity, 2) : null,
  };
}

export function createSimulatedWarehouse(options: SimulatedWarehouseOptions): SimulatedWarehouse {
  const control = createSimulatorControl(options);
  const seconds = () => options.now().getTime() / 1000;

  /** The environment's clusters at the current instant, after the pause check every call makes. */
  const open = (envId: string) => {
    control.assertAvailable(envId);
    const at = seconds();
    const layout = envLayout(envId);
    return { at, layout, snapshots: layout.clusters.map((cluster) => snapshotAt(layout, cluster, at)) };
  };

  const gateway: WarehouseGateway = {
    async cluster(envId): Promise<ClusterHealth> {
      const { at, snapshots } = open(envId);
      const storages = snapshots.map((snapshot) => {
        const running = queriesOverlapping(snapshot.cluster, snapshot.tables, at, at);
        return clusterStorage(snapshot, temporarySpillMb(running, at));
      });
      const clusters = storages.map((storage) => storage.summary);
      return { clusters, nodes: storages.flatMap((storage) => storage.nodes), totals: totalsOf(clusters) };
    },

    async slowQueries(envId) {
      const { at, snapshots } = open(envId);
      return snapshots
        .flatMap((s) => queriesOverlapping(s.cluster, s.tables, at, at))
        .filter((q) => isExecutingAt(q, at) && at - q.execStartAt > SLOW_QUERY_THRESHOLD_SECONDS)
        .map((q) => ({
          query_id: q.queryId,
          exec_time_seconds: Math.floor(at - q.execStartAt),
          user_name: q.userName,
          database: q.database,
          wlm_queue: q.queue,
          query_text: queryTextOf(q),
          cluster_id: q.clusterId,
        }))
        .sort((a, b) => b.exec_time_seconds - a.exec_time_seconds || a.query_id - b.query_id);
    },

    async spillQueries(envId) {
      const { at, snapshots } = open(envId);
      const from = at - SPILL_LOOKBACK_HOURS * HOUR;
      // Like svl_query_metrics_summary, only finished queries report their spill.
      return snapshots
        .flatMap((s) => queriesOverlapping(s.cluster, s.tables, from, at))
        .filter((q) => q.spillMb > 0 && q.endAt <= at && q.endAt >= from)
        .sort((a, b) => b.spillMb - a.spillMb || a.queryId - b.queryId)
        .slice(0, SPILL_TOP_N)
        .map((q) => ({
          query_id: q.queryId,
          user_name: q.userName,
          spill_mb: q.spillMb,
          exec_time_seconds: Math.floor(q.endAt - q.execStartAt),
          query_text: queryTextOf(q),
          cluster_id: q.clusterId,
        }));
    },

    async vacuumCandidates(envId) {
      const { snapshots } = open(envId);
      return snapshots
        .flatMap(({ tables, figures }) =>
          tables
            .map((table, i) => ({ table, figures: figures[i]! }))
            .filter(({ figures }) => needsVacuumOrAnalyze(figures)),
        )
        .map(({ table, figures }) => ({
          schema: table.schema,
          table_name: table.name,
          unsorted_pct: figures.unsorted_pct,
          stats_off: figures.stats_off,
          tbl_rows: figures.tbl_rows,
          size_mb: figures.size_mb,
          pct_ghost_rows: figures.pct_ghost_rows,
          recommendation: vacuumRecommendation(figures),
          cluster_id: table.clusterId,
        }))
        .sort(byUnsortedDescending);
    },

    async tableAlerts(envId) {
      const { at, snapshots } = open(envId);
      const from = at - TABLE_ALERT_LOOKBACK_DAYS * DAY;
      return snapshots
        .flatMap((s) => summarizeAlerts(alertEventsBetween(s.cluster, s.tables, from, at)))
        .map((summary) => ({
          schema: summary.table.schema,
          table_name: summary.table.name,
          event: summary.event,
          solution: summary.solution,
          count: summary.count,
          last_seen: new Date(Math.floor(summary.lastSeen * 1000)).toISOString(),
          sample_query_id: summary.sampleQueryId,
          cluster_id: summary.table.clusterId,
        }))
        .sort((a, b) => b.count - a.count || b.last_seen.localeCompare(a.last_seen));
    },

    async storage(envId) {
      const { snapshots } = open(envId);
      return snapshots
        .flatMap(({ tables, figures }) =>
          tables.map((table, i) => ({
            schema: table.schema,
            table_name: table.name,
            size_mb: figures[i]!.size_mb,
            tbl_rows: figures[i]!.tbl_rows,
            unsorted_pct: figures[i]!.unsorted_pct,
            pct_ghost_rows: figures[i]!.pct_ghost_rows,
            dist_style: table.distStyle,
            sortkey1: table.sortkey1,
            cluster_id: table.clusterId,
          })),
        )
        .sort((a, b) => b.size_mb - a.size_mb || a.table_name.localeCompare(b.table_name));
    },

    async readMetric({ envId, clusterId, metric, windowMinutes }) {
      control.assertAvailable(envId);
      if (!Number.isInteger(windowMinutes) || windowMinutes < 1) {
        throw new InvalidMetricRequestError(`window must be a positive whole number of minutes, got ${windowMinutes}`);
      }
      // The same pure function a rule backtest replays history with (metric-history.ts).
      return simulatedMetricAt({ envId, clusterId, metric, windowMinutes }, seconds());
    },

    async queryVisibility(envId) {
      open(envId);
      // The simulator has no users to hide from each other.
      return 'all_queries';
    },

    ...simulatedSyncSources(open),
    ...simulatedDiagnostics(open),
  };

  return { gateway, control };
}
