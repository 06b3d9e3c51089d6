/**
 * The metrics an alert rule can watch (the registry's ids, units and descriptions) and one metric's
 * value now, read as the evaluator would read it for a rule with that window and cluster. The
 * dashboard picks the metric from the list and shows the reading against the threshold before a
 * rule is saved; no rule and no evaluation is written.
 */
import type { AlertMetric, MetricReading } from '../src/contract/alert-rules.js';
import Router from '@koa/router';
import { z } from 'zod';
import { InvalidMetricRequestError, UnknownMetricError } from '../src/gateways/warehouse/errors.js';
import type { MetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, HttpProblem, serviceUnavailable } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import { metricWindowMinutes } from '../src/process/evaluation-decision.js';

export const alertMetricReadingQuery = z.object({
  metric: z.string().min(1).meta({ description: 'a metric id from GET /alert-metrics' }),
  window_minutes: z.coerce
    .number()
    .int()
    .min(0)
    .max(1440)
    .default(5)
    .meta({ description: "the rule's evaluation window; 0 reads the last minute, as the evaluator does" }),
  cluster_id: z.string().trim().min(1).max(200).optional(),
});

export interface AlertMetricDeps {
  metrics: MetricRegistry;
  /** The cluster ids of an environment, or null when they are not known. */
  clusterIds: (envId: string) => readonly string[] | null;
  now?: () => Date;
}

export function alertMetricRoutes(deps: AlertMetricDeps) {
  const router = new Router<AppState>();
  const now = deps.now ?? (() => new Date());

  router.get('/alert-metrics', requires('alerts:read'), queryParameters([]), (ctx) => {
    const metrics: AlertMetric[] = deps.metrics.describe();
    ok(ctx, metrics);
  });

  // The metric is a query parameter, not a path segment: metric ids are the registry's, not a tenant's resources.
  router.get(
    '/alert-metrics/reading',
    requires('alerts:read'),
    queryParameters(Object.keys(alertMetricReadingQuery.shape)),
    async (ctx) => {
      const query = alertMetricReadingQuery.parse(ctx.query);
      const { metric } = query;
      if (!deps.metrics.has(metric)) {
        throw badRequest('unknown metric', [
          { path: '/metric', message: `unknown metric; known metrics: ${deps.metrics.ids().join(', ')}` },
        ]);
      }
      const { envId } = ctx.state.principal;
      const clusters = query.cluster_id === undefined ? null : deps.clusterIds(envId);
      if (clusters && !clusters.includes(query.cluster_id!)) {
        throw badRequest('cluster_id is not a cluster of the environment', [
          { path: '/cluster_id', message: `not a cluster of the environment; its clusters: ${clusters.join(', ')}` },
        ]);
      }
      // A window of 0 (trigger on the first breach) reads the last minute, as the evaluator does.
      const windowMinutes = metricWindowMinutes(query.window_minutes);
      try {
        const value = await deps.metrics.read({ envId, clusterId: query.cluster_id, metric, windowMinutes });
        const reading: MetricReading = {
          metric,
          value,
          window_minutes: windowMinutes,
          cluster_id: query.cluster_id ?? null,
          read_at: now().toISOString(),
        };
        ok(ctx, reading);
      } catch (error) {
        if (error instanceof HttpProblem) throw error;
        if (error instanceof UnknownMetricError)
          throw badRequest(error.message, [{ path: '/metric', message: error.message }]);
        if (error instanceof InvalidMetricRequestError) throw badRequest(error.message);
        // The warehouse did not answer (paused, unreachable, a view refused): say so, as a rule's evaluation would.
        throw serviceUnavailable(error instanceof Error ? error.message : String(error));
      }
    },
  );
  return router;
}
