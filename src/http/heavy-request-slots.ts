/**
 * How many heavy read requests (escalation previews, rule backtests, analytics) run at once: per
 * tenant, so one tenant's script cannot take every slot, and in total across tenants, so a burst
 * from many tenants cannot queue minutes of CPU behind /health and the evaluator. Each such request
 * yields between time slices (src/time-slice.ts); the caps bound how many slices interleave. One
 * more than a cap is a 429 with Retry-After; a slot is given back when its request answers.
 */
import type { Middleware } from 'koa';
import { createKeyedSlots } from './keyed-slots.js';
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
/** The one key under which the total, all tenants together, is counted. */
const EVERY_TENANT = '*';

export function createHeavyRequestSlots(limits: HeavyRequestLimits): HeavyRequestSlots {
  const byTenant = createKeyedSlots(limits.perTenant, () =>
    tooManyRequests(
      `at most ${limits.perTenant} heavy requests (previews, backtests, analytics) per tenant run at once (HEAVY_REQUESTS_PER_TENANT); wait for one to answer`,
      RETRY_AFTER_SECONDS,
    ),
  );
  const total = createKeyedSlots(limits.total, () =>
    tooManyRequests(
      `at most ${limits.total} heavy requests (previews, backtests, analytics) run at once on this instance, all tenants together (HEAVY_REQUESTS_TOTAL); try again shortly`,
      RETRY_AFTER_SECONDS,
    ),
  );
  return {
    take(tenantId) {
      // The tenant's cap is checked first: a tenant at its cap hears about its own cap.
      const releaseTenant = byTenant.take(tenantId);
      let releaseTotal: () => void;
      try {
        releaseTotal = total.take(EVERY_TENANT);
      } catch (refusal) {
        releaseTenant();
        throw refusal;
      }
      return () => {
        releaseTotal();
        releaseTenant();
      };
    },
    inUse: () => total.inUse(EVERY_TENANT),
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
