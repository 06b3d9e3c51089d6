import Router from '@koa/router';
import type { Registry } from 'prom-client';
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
 * GET /health reports each dependency (event store, read store, warehouse, …) as what it verified
 * (`up`, `down`, or an UnverifiedStatus) and answers 503 when one is down. GET /metrics serves
 * Prometheus text. Both are public: they carry no tenant data, and scrapers and load balancers
 * call them without tokens.
 */
export function operationalRoutes(deps: { checks: Record<string, HealthCheck>; registry: Registry; beforeMetrics?: () => void; extra?: () => Record<string, unknown> }) {
  const router = new Router();
  router.get('/health', async (ctx) => {
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
  });
  router.get('/metrics', async (ctx) => {
    deps.beforeMetrics?.();
    ctx.type = deps.registry.contentType;
    ctx.body = await deps.registry.metrics();
  });
  return router;
}
