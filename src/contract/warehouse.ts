/**
 * The live warehouse health answers (queries/warehouse.ts): clusters and nodes, slow and spilling
 * queries, vacuum candidates, table alerts, storage. Written once here: the routes' answers are
 * typed from them, src/openapi/warehouse.ts documents them, the console imports their types.
 */
import { z } from 'zod';
import { instant } from './answer-pieces.js';

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

export const slowQueriesSchema = z.object({
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

export const spillQueriesSchema = z.object({
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

export const vacuumSchema = z.object({
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

export const tableAlertsSchema = z.object({
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

export const storageSchema = z.object({
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

export type ClusterView = z.infer<typeof clusterHealthSchema>;
export type SlowQueriesView = z.infer<typeof slowQueriesSchema>;
export type SpillView = z.infer<typeof spillQueriesSchema>;
export type VacuumView = z.infer<typeof vacuumSchema>;
export type TableAlertsView = z.infer<typeof tableAlertsSchema>;
export type StorageView = z.infer<typeof storageSchema>;
/** What a route computes; the route adds `visibility` (query views only) and `generated_at`. */
export type WarehouseAnswerBody<A> = Omit<A, 'visibility' | 'generated_at'>;
