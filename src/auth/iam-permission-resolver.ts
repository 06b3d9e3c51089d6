/**
 * The permission resolver over the IAM read models: gathers the levels of a principal (user
 * overrides, groups, role or token roles, tenant defaults), decides with the pure
 * effectivePermissions, and caches the result per principal until an IAM change in its tenant
 * (see iam-change-stamps.ts for why that is never stale for the next request).
 */
import { effectivePermissions, type EffectivePermissions, type PermissionLevels } from './effective-permissions.js';
import type { IamChangeStamps } from './iam-change-stamps.js';
import type { PermissionResolver } from '../access/permission-resolver.js';
import type { Principal } from '../access/principal.js';

/** A principal's user record: none (service client, first administrator), or its state. */
export type UserStanding = 'active' | 'deactivated' | 'removed' | 'no_record';

export interface PermissionSourcesLookup {
  forPrincipal(principal: Principal): Promise<{ standing: UserStanding; levels: PermissionLevels }>;
}

export interface ResolvedPrincipal {
  standing: UserStanding;
  effective: EffectivePermissions;
}

export interface IamPermissionResolver extends PermissionResolver {
  resolve(principal: Principal): Promise<ResolvedPrincipal>;
}

const DEFAULT_CACHE_ENTRIES = 10_000;

export function iamPermissionResolver(deps: {
  lookup: PermissionSourcesLookup;
  stamps: IamChangeStamps;
  maxEntries?: number;
}): IamPermissionResolver {
  const maxEntries = deps.maxEntries ?? DEFAULT_CACHE_ENTRIES;
  const cache = new Map<string, ResolvedPrincipal & { stamp: string }>();
  // The roles claim is part of the key: it is the role level of a principal without a user record.
  const keyOf = (p: Principal) => `${p.tenantId}\u0000${p.userId}\u0000${p.roles.join('\u0001')}`;

  // The authenticator hands one frozen principal object to every request with the same token, and a
  // request asks twice (inactive-user check, permission check): found by the object itself, the
  // entry costs neither the key's string nor a map lookup by it. Same stamp rule as the cache.
  const byPrincipal = new WeakMap<Principal, ResolvedPrincipal & { stamp: string }>();

  async function resolve(principal: Principal): Promise<ResolvedPrincipal> {
    const stamp = deps.stamps.stampOf(principal.tenantId);
    const known = byPrincipal.get(principal);
    if (known && known.stamp === stamp) return known;
    const key = keyOf(principal);
    const cached = cache.get(key);
    if (cached && cached.stamp === stamp) {
      byPrincipal.set(principal, cached);
      return cached;
    }
    const { standing, levels } = await deps.lookup.forPrincipal(principal);
    const entry = { stamp, standing, effective: effectivePermissions(levels) };
    cache.delete(key);
    cache.set(key, entry);
    // Map keeps insertion order: the first key is the least recently computed one.
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
    byPrincipal.set(principal, entry);
    return entry;
  }

  return {
    resolve,
    async can(principal, permission) {
      const { standing, effective } = await resolve(principal);
      if (standing === 'deactivated' || standing === 'removed') return false;
      return effective[permission].allowed;
    },
  };
}
