import { randomFrom, seedOf } from './prng.js';

/**
 * The simulated clusters of an environment: fixed for an env_id (only their contents change over
 * time). About half the environments get a second, ETL-heavy cluster, so rules scoped by
 * cluster_id have something to choose between.
 */

export interface SimulatedNodeType {
  name: string;
  slicesPerNode: number;
  capacityGbPerNode: number;
}

/** Dense-compute node types: fixed local storage, so storage utilization is a meaningful gauge. */
export const NODE_TYPES: readonly SimulatedNodeType[] = [
  { name: 'dc2.large', slicesPerNode: 2, capacityGbPerNode: 160 },
  { name: 'dc2.8xlarge', slicesPerNode: 16, capacityGbPerNode: 2560 },
];

export type ClusterRole = 'main' | 'etl';

export interface SimulatedCluster {
  id: string;
  envId: string;
  role: ClusterRole;
  nodeType: SimulatedNodeType;
  nodeCount: number;
  database: string;
  /** Share of the capacity the tables occupy on average, 0..1. */
  fillRatio: number;
  /** Multiplies the query arrival rate. */
  intensity: number;
  /** Query ids of this cluster start here, so ids of two clusters never collide. */
  queryIdBase: number;
  /** Per-node share of the data (distribution skew), sums to 1. */
  nodeShares: number[];
}

export const totalSlices = (cluster: SimulatedCluster): number => cluster.nodeType.slicesPerNode * cluster.nodeCount;
export const capacityGb = (cluster: SimulatedCluster): number => cluster.nodeType.capacityGbPerNode * cluster.nodeCount;

const DATABASES = ['analytics', 'dw', 'warehouse', 'reporting'] as const;

function buildCluster(envId: string, role: ClusterRole, slug: string, ordinal: number): SimulatedCluster {
  const random = randomFrom(seedOf(envId, 'cluster', role));
  const nodeType =
    role === 'etl'
      ? random.weighted([
          [NODE_TYPES[0]!, 1],
          [NODE_TYPES[1]!, 1],
        ])
      : random.pick(NODE_TYPES);
  const nodeCount = nodeType.slicesPerNode >= 16 ? random.int(2, 4) : random.int(2, 8);
  const skews = Array.from({ length: nodeCount }, () => random.between(0.92, 1.08));
  const skewTotal = skews.reduce((sum, skew) => sum + skew, 0);
  return {
    id: `rs-${slug}-${role}`,
    envId,
    role,
    nodeType,
    nodeCount,
    database: random.pick(DATABASES),
    fillRatio: random.between(0.35, 0.72),
    intensity: role === 'etl' ? random.between(0.5, 0.9) : random.between(0.8, 1.5),
    // Spread bases far apart; ids grow by 8 a minute (see workload.ts), so they stay below 2^31.
    queryIdBase: 1_000_000 + (seedOf(envId, 'query-ids') % 400_000_000) + ordinal * 500_000_000,
    nodeShares: skews.map((skew) => skew / skewTotal),
  };
}

export function simulatedClusters(envId: string): SimulatedCluster[] {
  const slug = seedOf(envId, 'slug').toString(16).padStart(8, '0').slice(0, 6);
  const clusters = [buildCluster(envId, 'main', slug, 0)];
  if (randomFrom(seedOf(envId, 'has-etl-cluster')).chance(0.5)) clusters.push(buildCluster(envId, 'etl', slug, 1));
  return clusters;
}
