/** Live warehouse health and the simulator's steering routes (queries/warehouse.ts, src/gateways/warehouse/simulated/control-routes.ts). */
import { z } from 'zod';
import { clusterBodySchema, pinBodySchema } from '../gateways/warehouse/simulated/control-routes.js';
import type { OperationDoc } from './operation.js';
import {
  clusterHealthSchema,
  slowQueriesSchema,
  spillQueriesSchema,
  storageSchema,
  tableAlertsSchema,
  vacuumSchema,
} from '../contract/warehouse.js';
import { instant } from './shared-schemas.js';

const tag = 'Warehouse health';
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
