/** Live warehouse health and the simulator's steering routes (queries/warehouse.ts, src/gateways/warehouse/simulated/control-routes.ts). */
import { z } from 'zod';
import { clusterBodySchema, pinBodySchema } from '../gateways/warehouse/simulated/control-routes.js';
import type { OperationDoc } from './operation.js';
import { instant } from './shared-schemas.js';

const tag = 'Warehouse health';
const gb = z.number().nullable();
const totals = {
  node_count: z.number().int(),
  slices: z.number().int(),
  capacity_gb: gb.meta({ description: 'null for serverless' }),
  used_gb: z.number(),
  pct_used: z.number().nullable(),
};
const visibility = z
  .enum(['all_queries', 'own_queries_only', 'unknown'])
  .meta({ description: 'whose queries the monitoring user could see' });
const generatedAt = instant;

export const clusterHealthSchema = z.object({
  clusters: z.array(
    z.object({
      cluster_id: z.string(),
      kind: z.enum(['provisioned', 'serverless']),
      node_type: z.string().nullable(),
      ...totals,
    }),
  ),
  nodes: z.array(
    z.object({
      cluster_id: z.string(),
      id: z.string(),
      role: z.enum(['compute', 'shared', 'serverless']),
      slices: z.number().int(),
      capacity_gb: gb,
      used_gb: z.number(),
      pct_used: z.number().nullable(),
    }),
  ),
  totals: z.object(totals),
  visibility,
  generated_at: generatedAt,
});

const slowQueriesSchema = z.object({
  queries: z.array(
    z.object({
      query_id: z.number().int(),
      exec_time_seconds: z.number(),
      user_name: z.string(),
      database: z.string(),
      wlm_queue: z.string(),
      query_text: z.string(),
      cluster_id: z.string(),
    }),
  ),
  threshold_seconds: z.number(),
  visibility,
  generated_at: generatedAt,
});

const spillQueriesSchema = z.object({
  queries: z.array(
    z.object({
      query_id: z.number().int(),
      user_name: z.string(),
      spill_mb: z.number(),
      exec_time_seconds: z.number(),
      query_text: z.string(),
      cluster_id: z.string(),
    }),
  ),
  lookback_hours: z.number(),
  limit: z.number().int(),
  visibility,
  generated_at: generatedAt,
});

const vacuumSchema = z.object({
  tables: z.array(
    z.object({
      schema: z.string(),
      table_name: z.string(),
      unsorted_pct: z.number(),
      stats_off: z.number(),
      tbl_rows: z.number(),
      size_mb: z.number(),
      pct_ghost_rows: z.number(),
      recommendation: z.string(),
      cluster_id: z.string(),
    }),
  ),
  thresholds: z.object({ unsorted_pct: z.number(), stats_off: z.number() }),
  generated_at: generatedAt,
});

const tableAlertsSchema = z.object({
  alerts: z.array(
    z.object({
      schema: z.string(),
      table_name: z.string(),
      event: z.string(),
      solution: z.string(),
      count: z.number().int(),
      last_seen: instant,
      sample_query_id: z.number().int(),
      cluster_id: z.string(),
    }),
  ),
  lookback_days: z.number(),
  visibility,
  generated_at: generatedAt,
});

const storageSchema = z.object({
  tables: z.array(
    z.object({
      schema: z.string(),
      table_name: z.string(),
      size_mb: z.number(),
      tbl_rows: z.number(),
      unsorted_pct: z.number(),
      pct_ghost_rows: z.number(),
      dist_style: z.string(),
      sortkey1: z.string(),
      cluster_id: z.string(),
    }),
  ),
  generated_at: generatedAt,
});

/** `bare`: SPEC.md names the answer's top-level fields (slow queries, storage): no envelope. */
const health = (path: string, summary: string, data: z.ZodType, bare = false): OperationDoc => ({
  method: 'get',
  path,
  tag,
  summary,
  description: "Read live from the warehouse of the token's environment (`env_id`); nothing is cached.",
  problems: {
    404: "The token's environment is unknown",
    503: 'The warehouse (or the identity provider) is unavailable',
  },
  response: { kind: 'envelope', status: 200, description: summary, data, ...(bare ? { bare } : {}) },
});

export const warehouseOperations: OperationDoc[] = [
  health('/warehouse/cluster', 'Clusters, nodes and storage totals', clusterHealthSchema),
  health('/warehouse/queries/slow', 'Slow queries', slowQueriesSchema, true),
  health('/warehouse/queries/spill', 'Queries that spilled to disk', spillQueriesSchema),
  health('/warehouse/tables/vacuum', 'Tables that need a vacuum or analyze', vacuumSchema),
  health('/warehouse/tables/alerts', 'Table alerts from the alert event log', tableAlertsSchema),
  health('/warehouse/storage', 'Storage per table', storageSchema, true),
  {
    method: 'post',
    path: '/simulator/metrics',
    tag: 'Simulator',
    summary: 'Pin a metric of the simulated warehouse for a while',
    body: pinBodySchema,
    problems: { 400: 'Invalid body, unknown metric (`known_metrics`) or unknown cluster' },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The pin',
      data: z.object({
        env_id: z.string(),
        cluster_id: z.string().nullable().meta({ description: 'null: every cluster of the environment' }),
        metric: z.string(),
        value: z.number(),
        expires_at: instant,
      }),
    },
  },
  {
    method: 'post',
    path: '/simulator/cluster',
    tag: 'Simulator',
    summary: 'Pause or resume the simulated cluster',
    body: clusterBodySchema,
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The simulated environment',
      data: z.object({ env_id: z.string(), paused: z.boolean(), clusters: z.array(z.string()) }),
    },
  },
];
