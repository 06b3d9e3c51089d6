import type { BuiltinMetricId } from '../metric-catalogue.js';
import { roundTo } from '../table-health.js';
import { clusterStorage, temporarySpillMb, type ClusterSnapshot } from './cluster-state.js';
import { totalSlices } from './fleet.js';
import { isExecutingAt, type SimulatedQuery } from './workload.js';

/**
 * The seven built-in metrics measured on the simulated workload over [at - window, at].
 * Over several clusters (no cluster_id), gauges report the worst cluster (max) and volumes add
 * up (spill, active queries); unsorted_pct pools every table, weighted by rows, as on Redshift.
 */

export interface ClusterWindow {
  snapshot: ClusterSnapshot;
  /** The queries whose life overlaps the window; only the metrics that need them call it. */
  queries: () => SimulatedQuery[];
}

/** What a cluster's CPUs do with no user query running (vacuum, commits, monitoring). */
const IDLE_CPU_PCT = 4;

function longestRuntime(queries: readonly SimulatedQuery[], from: number, at: number): number {
  let longest = 0;
  for (const q of queries) {
    if (q.execStartAt <= at && q.endAt > from) longest = Math.max(longest, Math.min(q.endAt, at) - q.execStartAt);
  }
  return Math.floor(longest);
}

function longestQueueWait(queries: readonly SimulatedQuery[], from: number, at: number): number {
  let longest = 0;
  for (const q of queries) {
    if (q.submittedAt <= at && q.execStartAt > from)
      longest = Math.max(longest, Math.min(q.execStartAt, at) - q.submittedAt);
  }
  return Math.floor(longest);
}

/** Spill written inside the window, assuming a query spills evenly while it executes. */
function spillWrittenMb(queries: readonly SimulatedQuery[], from: number, at: number): number {
  let total = 0;
  for (const q of queries) {
    if (q.spillMb === 0 || q.execStartAt > at || q.endAt <= from) continue;
    const overlap = Math.min(q.endAt, at) - Math.max(q.execStartAt, from);
    total += (q.spillMb * Math.max(0, overlap)) / (q.endAt - q.execStartAt);
  }
  return total;
}

function cpuUtilization(window: ClusterWindow, from: number, at: number): number {
  // A query's CPU share is relative to an 8-slice cluster; bigger clusters spread it thinner.
  const scale = Math.sqrt(8 / totalSlices(window.snapshot.cluster));
  let busySeconds = 0;
  for (const q of window.queries()) {
    const overlap = Math.min(q.endAt, at) - Math.max(q.execStartAt, from);
    if (overlap > 0) busySeconds += (q.cpuPct / 100) * scale * overlap;
  }
  return Math.min(100, IDLE_CPU_PCT + (busySeconds * 100) / (at - from));
}

function pooledUnsortedPct(windows: readonly ClusterWindow[]): number {
  let rows = 0;
  let unsortedRows = 0;
  for (const { snapshot } of windows) {
    for (const figures of snapshot.figures) {
      rows += figures.tbl_rows;
      unsortedRows += (figures.tbl_rows * figures.unsorted_pct) / 100;
    }
  }
  return rows === 0 ? 0 : roundTo((unsortedRows * 100) / rows, 2);
}

const maxOf = (values: number[]) => values.reduce((max, value) => Math.max(max, value), 0);
const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

export function measureMetric(
  metric: BuiltinMetricId,
  windows: readonly ClusterWindow[],
  atSeconds: number,
  windowSeconds: number,
): number {
  const from = atSeconds - windowSeconds;
  const perCluster = (measure: (window: ClusterWindow) => number) => windows.map(measure);
  switch (metric) {
    case 'query_runtime_seconds':
      return maxOf(perCluster((w) => longestRuntime(w.queries(), from, atSeconds)));
    case 'queue_time_seconds':
      return maxOf(perCluster((w) => longestQueueWait(w.queries(), from, atSeconds)));
    case 'disk_spill_gb':
      return roundTo(sumOf(perCluster((w) => spillWrittenMb(w.queries(), from, atSeconds))) / 1024, 3);
    case 'active_query_count':
      return sumOf(perCluster((w) => w.queries().filter((q) => isExecutingAt(q, atSeconds)).length));
    case 'cpu_utilization_pct':
      return roundTo(maxOf(perCluster((w) => cpuUtilization(w, from, atSeconds))), 2);
    case 'storage_utilization_pct':
      return maxOf(
        perCluster((w) => clusterStorage(w.snapshot, temporarySpillMb(w.queries(), atSeconds)).summary.pct_used ?? 0),
      );
    case 'unsorted_pct':
      return pooledUnsortedPct(windows);
  }
}
