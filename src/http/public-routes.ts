import Router from '@koa/router';
import type { Context } from 'koa';
import type { Registry } from 'prom-client';
import { renderMetrics } from '../metrics-collect.js';
import { withTimeout } from '../with-timeout.js';

/**
 * What a check reports instead of `up` when it verified nothing (`not_checked`: nothing to ask;
 * `not_opened` / `opening`: a lazily opened store not in use yet) or found the dependency
 * deliberately paused (`paused`: the simulator paused a cluster). None of them is a failure.
 */
export type UnverifiedStatus = 'not_checked' | 'not_opened' | 'opening' | 'paused';

/** Resolves with details (`status` when not `up`), or rejects: the dependency is down. */
export type HealthCheck = () => Promise<({ status?: UnverifiedStatus } & Record<string, unknown>) | void>;

/**
 * GET /health (and its alias GET /health/ready) reports each dependency (event store, read store,
 * projections, warehouse, …) as what it verified (`up`, `down`, or an UnverifiedStatus) and answers
 * 503 when one is down: a load balancer stops sending this instance traffic. GET /health/live only
 * says the process serves requests: a restart cures none of the reasons above (a full disk, a
 * damaged file, a read model catching up), so a liveness probe must not fail on them. GET /metrics
 * serves Prometheus text. All are public: they carry no tenant data, and scrapers and load
 * balancers call them without tokens.
 */
export function operationalRoutes(deps: {
  checks: Record<string, HealthCheck>;
  registry: Registry;
  beforeMetrics?: () => void | Promise<void>;
  extra?: () => Record<string, unknown>;
}) {
  const router = new Router();
  const readiness = async (ctx: Context) => {
    const results = await Promise.all(
      Object.entries(deps.checks).map(async ([name, check]) => {
        const started = Date.now();
        try {
          const { status = 'up', ...details } = (await withTimeout(check(), 3000)) ?? {};
          return [name, { status, latency_ms: Date.now() - started, ...details }] as const;
        } catch (error) {
          return [name, { status: 'down', error: (error as Error).message }] as const;
        }
      }),
    );
    const healthy = results.every(([, result]) => result.status !== 'down');
    ctx.status = healthy ? 200 : 503;
    ctx.body = { status: healthy ? 'ok' : 'degraded', checks: Object.fromEntries(results), ...(deps.extra?.() ?? {}) };
  };
  router.get('/health', readiness);
  router.get('/health/ready', readiness);
  router.get('/health/live', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/metrics', async (ctx) => {
    await deps.beforeMetrics?.();
    ctx.type = deps.registry.contentType;
    ctx.body = await renderMetrics(deps.registry);
  });
  return router;
}
