/**
 * When may a cached permission decision be reused? Until the IAM read models of its tenant change.
 * Every committed batch of an IAM projection moves its tenant's stamp; the resolver keeps an entry
 * only while the stamp it read before computing the entry is still current.
 *
 * The stamp moves after the read-store commit (not inside the projection's apply, which runs
 * before it): a request that computed from the old data between apply and commit would otherwise
 * store it under the new stamp. And it moves before the projection runner releases read-your-writes
 * waiters, so the response to an IAM command is sent only once the very next request sees the change.
 */
import type { ReadStore } from '../readstore/port.js';
import { passThrough } from '../readstore/pass-through.js';

export interface IamChangeStamps {
  /** Opaque; equal stamps mean no IAM change in the tenant in between. */
  stampOf(tenantId: string): string;
  /** A change in one tenant, or (no tenant) in all of them. */
  changed(tenantId?: string): void;
}

export function iamChangeStamps(): IamChangeStamps {
  let everyone = 0;
  const perTenant = new Map<string, number>();
  return {
    stampOf: (tenantId) => `${everyone}.${perTenant.get(tenantId) ?? 0}`,
    changed(tenantId) {
      if (tenantId === undefined) everyone++;
      else perTenant.set(tenantId, (perTenant.get(tenantId) ?? 0) + 1);
    },
  };
}

/**
 * The read store as the projection runner should see it: unchanged, except that a committed batch
 * of one of `projectionNames` moves the stamps of the tenants it touched, and a collection swap
 * (a rebuild) moves every stamp.
 */
export function reportingIamCommits(
  store: ReadStore,
  projectionNames: ReadonlySet<string>,
  stamps: IamChangeStamps,
): ReadStore {
  return {
    ...passThrough(store),
    async applyBatch(options, events, apply) {
      await store.applyBatch(options, events, apply);
      if (!projectionNames.has(options.projection)) return;
      const tenants = new Set(
        events.map((event) => (event as { metadata?: { tenantId?: string } }).metadata?.tenantId),
      );
      for (const tenantId of tenants) stamps.changed(tenantId);
    },
    async replaceCollection(source, target) {
      await store.replaceCollection(source, target);
      stamps.changed();
    },
    async replaceCollections(swaps) {
      await store.replaceCollections(swaps);
      stamps.changed();
    },
  };
}
