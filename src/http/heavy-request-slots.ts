/**
 * How many heavy read requests (escalation previews, rule backtests, analytics) run at once: per
 * tenant, so one tenant's script cannot take every slot, and in total across tenants, so a burst
 * from many tenants cannot queue minutes of CPU behind /health and the evaluator. Each such request
 * yields between time slices (src/time-slice.ts); the caps bound how many slices interleave. One
 * more than a cap is a 429 with Retry-After; a slot is given back when its request answers.
 */
import type { Middleware } from 'koa';
import { tooManyRequests } from './problem.js';
import type { AppState } from './state.js';

export interface HeavyRequestLimits {
  perTenant: number;
  total: number;
}

export interface HeavyRequestSlots {
  /** Takes a slot for the tenant (or throws the 429); the returned function gives it back, once. */
  take(tenantId: string): () => void;
  /** Slots taken now, all tenants together. */
  inUse(): number;
}

const RETRY_AFTER_SECONDS = 1;

export function createHeavyRequestSlots(limits: HeavyRequestLimits): HeavyRequestSlots {
  const byTenant = new Map<string, number>();
  let total = 0;
  return {
    take(tenantId) {
      const mine = byTenant.get(tenantId) ?? 0;
      if (mine >= limits.perTenant) {
        throw tooManyRequests(
          `at most ${limits.perTenant} heavy requests (previews, backtests, analytics) per tenant run at once (HEAVY_REQUESTS_PER_TENANT); wait for one to answer`,
          RETRY_AFTER_SECONDS,
        );
      }
      if (total >= limits.total) {
        throw tooManyRequests(
          `at most ${limits.total} heavy requests (previews, backtests, analytics) run at once on this instance, all tenants together (HEAVY_REQUESTS_TOTAL); try again shortly`,
          RETRY_AFTER_SECONDS,
        );
      }
      byTenant.set(tenantId, mine + 1);
      total += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (byTenant.get(tenantId) ?? 1) - 1;
        if (left > 0) byTenant.set(tenantId, left);
        else byTenant.delete(tenantId);
      };
    },
    inUse: () => total,
  };
}

/** Route middleware: holds a slot of the caller's tenant while the rest of the route runs (after its guard). */
export function heavyRequest(slots: HeavyRequestSlots): Middleware<AppState> {
  return async (ctx, next) => {
    const release = slots.take(ctx.state.principal.tenantId);
    try {
      await next();
    } finally {
      release();
    }
  };
}
