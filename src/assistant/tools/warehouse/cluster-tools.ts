import { z } from 'zod';
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import { defineTool } from '../../tool.js';
import { clusterId, ofCluster, round } from './shared.js';

/** Storage used above this share of a node's disk leaves little room for spill and vacuum. */
export const NODE_STORAGE_WARN_PCT = 80;

const storageFigures = {
  node_count: z.number().int().min(0),
  slices: z.number().int().min(0),
  capacity_gb: z.number().nullable().describe('null for serverless (managed storage, no fixed capacity)'),
  used_gb: z.number(),
  pct_used: z.number().nullable(),
};

/** The environment at a glance: clusters, storage and the load on their queues right now. */
export function clusterOverviewTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'cluster_overview',
    family: 'warehouse',
    description:
      "The environment's warehouse at a glance: each cluster (or serverless workgroup) with its kind, node type, node and slice counts, storage used, and how many queries are executing and waiting in its queues now; plus whether the monitoring user sees every user's queries (visibility). Start here.",
    input: z.object({}).strict(),
    output: z.object({
      clusters: z.array(
        z.object({
          cluster_id: z.string(),
          kind: z.enum(['provisioned', 'serverless']),
          node_type: z.string().nullable(),
          ...storageFigures,
          executing_queries: z.number().int().min(0),
          waiting_queries: z.number().int().min(0),
        }),
      ),
      totals: z.object(storageFigures),
      visibility: z.enum(['all_queries', 'own_queries_only', 'unknown']),
    }),
    example: {},
    async run(_input, { envId }) {
      const [health, queues, visibility] = await Promise.all([
        warehouse.cluster(envId),
        warehouse.wlmQueues(envId),
        warehouse.queryVisibility(envId),
      ]);
      const load = (cluster: string, field: 'executing' | 'waiting') =>
        queues.filter((queue) => queue.cluster_id === cluster).reduce((sum, queue) => sum + queue[field], 0);
      return {
        clusters: health.clusters.map((cluster) => ({
          ...cluster,
          executing_queries: load(cluster.cluster_id, 'executing'),
          waiting_queries: load(cluster.cluster_id, 'waiting'),
        })),
        totals: health.totals,
        visibility,
      };
    },
  });
}

/** Per-node storage, and how unevenly the nodes fill (distribution skew shows here first). */
export function nodeStorageTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'node_storage',
    family: 'warehouse',
    description: `Disk use per node of each cluster (capacity, used GB, percent used), the spread between the fullest and emptiest node, and the nodes above ${NODE_STORAGE_WARN_PCT} % (little room left for spill and vacuum). A serverless workgroup is one pseudo-node without capacity.`,
    input: z.object({ cluster_id: clusterId.optional() }).strict(),
    output: z.object({
      clusters: z.array(
        z.object({
          cluster_id: z.string(),
          nodes: z.array(
            z.object({
              id: z.string(),
              role: z.enum(['compute', 'shared', 'serverless']),
              slices: z.number().int().min(0),
              capacity_gb: z.number().nullable(),
              used_gb: z.number(),
              pct_used: z.number().nullable(),
            }),
          ),
          fullest_pct: z.number().nullable(),
          emptiest_pct: z.number().nullable(),
          spread_pct_points: z.number().nullable().describe('fullest minus emptiest node, in percentage points'),
          nodes_over_warning: z.array(z.string()),
        }),
      ),
      warning_pct: z.number(),
    }),
    example: {},
    async run(input, { envId }) {
      const health = await warehouse.cluster(envId);
      const clusters = ofCluster(health.clusters, input.cluster_id).map(({ cluster_id }) => {
        const nodes = health.nodes.filter((node) => node.cluster_id === cluster_id);
        const pcts = nodes.map((node) => node.pct_used).filter((pct): pct is number => pct !== null);
        const fullest = pcts.length > 0 ? Math.max(...pcts) : null;
        const emptiest = pcts.length > 0 ? Math.min(...pcts) : null;
        return {
          cluster_id,
          nodes: nodes.map(({ cluster_id: _cluster, ...node }) => node),
          fullest_pct: fullest,
          emptiest_pct: emptiest,
          spread_pct_points: fullest === null || emptiest === null ? null : round(fullest - emptiest),
          nodes_over_warning: nodes
            .filter((node) => (node.pct_used ?? 0) > NODE_STORAGE_WARN_PCT)
            .map((node) => node.id),
        };
      });
      return { clusters, warning_pct: NODE_STORAGE_WARN_PCT };
    },
  });
}
