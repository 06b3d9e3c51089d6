/**
 * How many server-sent event streams of one kind a tenant holds open at once: one tenant's 200
 * open connections must not take the sockets and memory every other tenant needs. Taking a slot
 * beyond the limit is a 429 with Retry-After; a slot is given back when its stream closes.
 */
import { createKeyedSlots } from './keyed-slots.js';
import { tooManyRequests } from './problem.js';

export function createTenantStreamSlots(options: { perTenant: number; streamName: string; retryAfterSeconds: number }) {
  const open = createKeyedSlots(options.perTenant, () =>
    tooManyRequests(
      `at most ${options.perTenant} ${options.streamName} streams per tenant are open at once; close one first`,
      options.retryAfterSeconds,
    ),
  );
  return {
    /** Takes a slot for the tenant (or throws the 429); the returned function gives it back, once. */
    take: (tenantId: string): (() => void) => open.take(tenantId),
  };
}
