import type { ClusterSummary, WarehouseNode } from '../port.js';
import { roundTo } from '../table-health.js';
import { capacityGb, simulatedClusters, totalSlices, type SimulatedCluster } from './fleet.js';
import { tableCatalogue, type SimulatedTable } from './table-catalogue.js';
import { tableFiguresAt, type TableFigures } from './table-state.js';
import { isExecutingAt, type SimulatedQuery } from './workload.js';

/**
 * A simulated cluster at an instant: its tables with their figures, and the storage they take
 * on each node. Topology and table traits depend on the env_id alone, so they are derived once
 * per env and kept (bounded); every figure is recomputed from the clock on each read.
 */

export interface ClusterSnapshot {
  cluster: SimulatedCluster;
  tables: SimulatedTable[];
  /** Figures of `tables`, index for index. */
  figures: TableFigures[];
}

interface EnvLayout {
  clusters: SimulatedCluster[];
  tables: Map<string, SimulatedTable[]>;
}

const LAYOUT_MEMO_LIMIT = 4096;
const layouts = new Map<string, EnvLayout>();

export function envLayout(envId: string): EnvLayout {
  let layout = layouts.get(envId);
  if (!layout) {
    const clusters = simulatedClusters(envId);
    layout = { clusters, tables: new Map(clusters.map((cluster) => [cluster.id, tableCatalogue(cluster)])) };
    if (layouts.size >= LAYOUT_MEMO_LIMIT) layouts.clear();
    layouts.set(envId, layout);
  }
  return layout;
}

export function snapshotAt(layout: EnvLayout, cluster: SimulatedCluster, atSeconds: number): ClusterSnapshot {
  const tables = layout.tables.get(cluster.id) ?? [];
  const slices = totalSlices(cluster);
  return { cluster, tables, figures: tables.map((table) => tableFiguresAt(table, atSeconds, slices)) };
}

/** Spill files of executing queries occupy disk until the query ends; they grow as it runs. */
export function temporarySpillMb(queries: readonly SimulatedQuery[], atSeconds: number): number {
  let total = 0;
  for (const query of queries) {
    if (!isExecutingAt(query, atSeconds) || query.spillMb === 0) continue;
    const progress = (atSeconds - query.execStartAt) / (query.endAt - query.execStartAt);
    total += query.spillMb * Math.min(1, progress);
  }
  return total;
}

/** Catalog, logs and mirrored blocks Redshift keeps on every node regardless of user data. */
const SYSTEM_OVERHEAD_SHARE = 0.015;

export interface ClusterStorage {
  summary: ClusterSummary;
  nodes: WarehouseNode[];
}

export function clusterStorage(snapshot: ClusterSnapshot, spillMb: number): ClusterStorage {
  const { cluster } = snapshot;
  const tableMb = snapshot.figures.reduce((sum, figures) => sum + figures.size_mb, 0);
  const nodeCapacityGb = cluster.nodeType.capacityGbPerNode;
  const role = cluster.nodeCount === 1 ? 'shared' : 'compute';
  const nodes: WarehouseNode[] = cluster.nodeShares.map((share, index) => {
    const usedGb = Math.min(
      nodeCapacityGb,
      ((tableMb + spillMb) * share) / 1024 + nodeCapacityGb * SYSTEM_OVERHEAD_SHARE,
    );
    return {
      cluster_id: cluster.id,
      id: String(index),
      role,
      slices: cluster.nodeType.slicesPerNode,
      capacity_gb: nodeCapacityGb,
      used_gb: roundTo(usedGb, 2),
      pct_used: roundTo((usedGb * 100) / nodeCapacityGb, 2),
    };
  });
  const usedGb = nodes.reduce((sum, node) => sum + node.used_gb, 0);
  const capacity = capacityGb(cluster);
  return {
    nodes,
    summary: {
      cluster_id: cluster.id,
      kind: 'provisioned',
      node_type: cluster.nodeType.name,
      node_count: cluster.nodeCount,
      slices: totalSlices(cluster),
      capacity_gb: capacity,
      used_gb: roundTo(usedGb, 2),
      pct_used: roundTo((usedGb * 100) / capacity, 2),
    },
  };
}
