import Router from '@koa/router';
import { z } from 'zod';
import type { MetricRegistry } from '../metrics/registry.js';
import { InvalidMetricRequestError, isUnknownCluster, isUnknownMetric } from '../port.js';
import type { SimulatorSteering } from './simulator-steering.js';
import { ok } from '../../../http/envelope.js';
import { requires } from '../../../http/guard.js';
import { badRequest, HttpProblem, type ProblemFieldError } from '../../../http/problem.js';
import type { AppState } from '../../../http/state.js';

/**
 * POST /simulator/*: steer the simulated warehouse of the caller's environment, for demos and
 * tests. Mounted only while the simulated warehouse is the active adapter.
 */

export interface SimulatorRouteDeps {
  /** Pins and pauses go through it: stored for every instance first when the state is shared. */
  control: SimulatorSteering;
  metrics: MetricRegistry;
}

const WEEK_SECONDS = 7 * 24 * 3600;

export const pinBodySchema = z.strictObject({
  cluster_id: z.string().min(1).optional(),
  metric: z.string().min(1),
  value: z.number(),
  duration_seconds: z.number().int().positive().max(WEEK_SECONDS),
});

export const clusterBodySchema = z.strictObject({ paused: z.boolean() });

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors: ProblemFieldError[] = parsed.error.issues.map((issue) => ({
    path: `/${issue.path.map(String).join('/')}`,
    message: issue.message,
  }));
  throw badRequest('the request body is invalid', errors);
}

function unknownMetricProblem(metric: string, known: readonly string[]): HttpProblem {
  return new HttpProblem(
    400,
    'Bad Request',
    `unknown metric "${metric}"; known metrics: ${known.join(', ')}`,
    [{ path: '/metric', message: `must be one of: ${known.join(', ')}` }],
    { known_metrics: known },
  );
}

export function simulatorRoutes(deps: SimulatorRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const write = requires('simulator:write');

  router.post('/simulator/metrics', write, async (ctx) => {
    const body = parseBody(pinBodySchema, ctx.request.body);
    const { envId } = ctx.state.principal;
    // The registry decides which metrics exist, so a registered extension can be pinned too.
    if (!deps.metrics.has(body.metric)) throw unknownMetricProblem(body.metric, deps.metrics.ids());
    try {
      const pin = await deps.control.pinMetric({
        envId,
        clusterId: body.cluster_id,
        metric: body.metric,
        value: body.value,
        durationSeconds: body.duration_seconds,
      });
      ok(ctx, {
        env_id: pin.envId,
        cluster_id: pin.clusterId,
        metric: pin.metric,
        value: pin.value,
        expires_at: pin.expiresAt.toISOString(),
      });
    } catch (error) {
      if (isUnknownMetric(error)) throw unknownMetricProblem(error.metric, error.knownMetrics);
      if (isUnknownCluster(error)) {
        throw badRequest(error.message, [
          { path: '/cluster_id', message: `must be one of: ${error.knownClusters.join(', ')}` },
        ]);
      }
      if (error instanceof InvalidMetricRequestError) throw badRequest(error.message);
      throw error;
    }
  });

  router.post('/simulator/cluster', write, async (ctx) => {
    const body = parseBody(clusterBodySchema, ctx.request.body);
    const status = await deps.control.setPaused(ctx.state.principal.envId, body.paused);
    ok(ctx, { env_id: status.envId, paused: status.paused, clusters: status.clusters });
  });

  return router;
}
