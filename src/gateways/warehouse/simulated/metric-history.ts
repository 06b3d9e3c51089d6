/**
 * A simulated metric at any instant, past or present: a pure function of (environment, cluster,
 * metric, window, instant), the environment id being the seed. The live gateway's readMetric
 * calls `simulatedMetricAt` for "now"; a rule backtest calls `simulatedMetricSeries` for a run of
 * past instants, and both end in the same `measureMetric` over the same queries, so a backtest
 * reproduces exactly what the evaluator read (pins excepted: they are live overrides, not history).
 *
 * The series builds each cluster's queries for the whole range once and hands every instant the
 * ones overlapping its window, in the order queriesOverlapping lists them (sums add up in the same
 * order, so rounding agrees to the last digit); rebuilding ~95 slots per instant would take
 * seconds for 31 days of minutes.
 */
import { BUILTIN_METRIC_IDS, isBuiltinMetric, type BuiltinMetricId } from '../metric-catalogue.js';
import { UnknownClusterError, UnknownMetricError } from '../port.js';
import { envLayout, snapshotAt, type ClusterSnapshot } from './cluster-state.js';
import type { SimulatedCluster } from './fleet.js';
import { measureMetric, type ClusterWindow } from './simulated-metrics.js';
import {
  MAX_QUERY_LIFETIME_SECONDS,
  queriesInSlot,
  queriesOverlapping,
  SLOT_SECONDS,
  type SimulatedQuery,
} from './workload.js';
import { seedOf } from './prng.js';

export interface SimulatedMetricScope {
  envId: string;
  /** One cluster, or undefined for every cluster of the environment. */
  clusterId?: string;
  metric: string;
  windowMinutes: number;
}

type Layout = ReturnType<typeof envLayout>;

function scopedClusters(
  layout: Layout,
  scope: SimulatedMetricScope,
): { metric: BuiltinMetricId; clusters: SimulatedCluster[] } {
  if (!isBuiltinMetric(scope.metric)) throw new UnknownMetricError(scope.metric, BUILTIN_METRIC_IDS);
  const clusters =
    scope.clusterId === undefined ? layout.clusters : layout.clusters.filter((c) => c.id === scope.clusterId);
  if (clusters.length === 0)
    throw new UnknownClusterError(
      scope.envId,
      scope.clusterId ?? '',
      layout.clusters.map((c) => c.id),
    );
  return { metric: scope.metric, clusters };
}

/** Table figures only when a metric asks for them (storage, unsorted): most metrics never do. */
function lazySnapshot(layout: Layout, cluster: SimulatedCluster, atSeconds: number): ClusterSnapshot {
  let figures: ClusterSnapshot['figures'] | undefined;
  return {
    cluster,
    tables: layout.tables.get(cluster.id) ?? [],
    get figures() {
      return (figures ??= snapshotAt(layout, cluster, atSeconds).figures);
    },
  };
}

/** The metric over [at − window, at], as the gateway measures it. */
export function simulatedMetricAt(scope: SimulatedMetricScope, atSeconds: number): number {
  const layout = envLayout(scope.envId);
  const { metric, clusters } = scopedClusters(layout, scope);
  const windowSeconds = scope.windowMinutes * 60;
  const windows: ClusterWindow[] = clusters.map((cluster) => {
    const snapshot = lazySnapshot(layout, cluster, atSeconds);
    let queries: SimulatedQuery[] | undefined;
    return {
      snapshot,
      queries: () => (queries ??= queriesOverlapping(cluster, snapshot.tables, atSeconds - windowSeconds, atSeconds)),
    };
  });
  return measureMetric(metric, windows, atSeconds, windowSeconds);
}

/**
 * Every query of the cluster submitted in the slots [firstSlot, lastSlot], in queriesOverlapping's
 * order, and where each slot's queries begin (`slotStarts[k]` for slot firstSlot + k; one more
 * entry marks the end). Within a slot queries are in draw order, not submission order.
 */
function queriesOfSlots(cluster: SimulatedCluster, layout: Layout, firstSlot: number, lastSlot: number) {
  const tables = layout.tables.get(cluster.id) ?? [];
  const slotSeed = seedOf(cluster.id, 'slot');
  const queries: SimulatedQuery[] = [];
  const slotStarts: number[] = [];
  for (let slot = firstSlot; slot <= lastSlot; slot++) {
    slotStarts.push(queries.length);
    for (const query of queriesInSlot(cluster, tables, slot, slotSeed)) queries.push(query);
  }
  slotStarts.push(queries.length);
  return { queries, slotStarts };
}

/**
 * The metric at each instant (epoch seconds, ascending), exactly as simulatedMetricAt would
 * answer each one. Throws as simulatedMetricAt does for an unknown metric or cluster.
 */
export function simulatedMetricSeries(scope: SimulatedMetricScope, instants: readonly number[]): number[] {
  if (instants.length === 0) return [];
  const layout = envLayout(scope.envId);
  const { metric, clusters } = scopedClusters(layout, scope);
  const windowSeconds = scope.windowMinutes * 60;
  const first = instants[0]! - windowSeconds;
  const last = instants.at(-1)!;
  const firstSlot = Math.floor((first - MAX_QUERY_LIFETIME_SECONDS) / SLOT_SECONDS);
  const lastSlot = Math.floor(last / SLOT_SECONDS);
  // Per cluster, the queries still alive (end after the window's start), in slot order: instants
  // ascend, so a query that ended before one window's start is never needed again.
  const perCluster = clusters.map((cluster) => ({
    cluster,
    ...queriesOfSlots(cluster, layout, firstSlot, lastSlot),
    live: [] as SimulatedQuery[],
    nextSlot: 0,
  }));
  return instants.map((at) => {
    const from = at - windowSeconds;
    const upToSlot = Math.floor(at / SLOT_SECONDS) - firstSlot;
    const windows: ClusterWindow[] = perCluster.map((state) => {
      const { queries, slotStarts } = state;
      let kept = 0;
      for (const query of state.live) if (query.endAt > from) state.live[kept++] = query;
      state.live.length = kept;
      for (; state.nextSlot <= upToSlot; state.nextSlot++) {
        for (let i = slotStarts[state.nextSlot]!; i < slotStarts[state.nextSlot + 1]!; i++)
          if (queries[i]!.endAt > from) state.live.push(queries[i]!);
      }
      let overlapping: SimulatedQuery[] | undefined;
      return {
        snapshot: lazySnapshot(layout, state.cluster, at),
        // queriesOverlapping's filter over the same queries in the same order.
        queries: () => (overlapping ??= state.live.filter((query) => query.submittedAt <= at)),
      };
    });
    return measureMetric(metric, windows, at, windowSeconds);
  });
}
