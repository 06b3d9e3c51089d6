/**
 * The I/O half of user-change-rule.ts: gathers the actor's permissions and the target's effective
 * permissions before and after a change (from the user's stream state and the tenant's roles,
 * groups and defaults), then refuses with 403 what the rule refuses.
 */
import type { UserProfile, UserState } from '../events/user.js';
import { forbidden } from '../http/problem.js';
import type { AppState } from '../http/state.js';
import type { GrantSourceLookup } from './assignment-guard.js';
import { allowedPermissions, effectivePermissions, type PermissionLevels } from './effective-permissions.js';
import { ALL_PERMISSIONS, type Permission } from '../access/permissions.js';
import { decideUserChange, protectedChanges } from './user-change-rule.js';

export interface UserChange {
  targetId: string;
  /** The target as its stream has it now (present: active or inactive). */
  target: UserState;
  changes: Partial<UserProfile>;
  isActive?: boolean;
  /** Sending the target an invitation (a login for its user id mailed to its email). */
  invitation?: boolean;
  /** The target does not exist yet: it holds nothing before. */
  fromNothing?: boolean;
}

async function levelsOf(
  lookup: GrantSourceLookup,
  tenantId: string,
  profile: UserProfile,
  target: UserState,
): Promise<PermissionLevels> {
  const [role, groups, tenantDefaults] = await Promise.all([
    profile.roleId ? lookup.findRole(tenantId, profile.roleId) : null,
    profile.groupIds.length > 0 ? lookup.findGroups(tenantId, profile.groupIds) : [],
    lookup.findTenantDefaults(tenantId),
  ]);
  return { overrides: target.overrides, groups, roles: role ? [role] : [], tenantDefaults };
}

export async function actorPermissions(state: Pick<AppState, 'can'>): Promise<Set<Permission>> {
  const held = await Promise.all(
    ALL_PERMISSIONS.map(async (permission) => ((await state.can(permission)) ? permission : null)),
  );
  return new Set(held.filter((permission): permission is Permission => permission !== null));
}

/**
 * A new user is a change from nothing: every acting permission it will hold (its role and groups,
 * and the tenant defaults where they leave a permission open) needs the creator to hold it.
 */
export async function assertCallerMayCreateUser(
  state: Pick<AppState, 'can' | 'principal'>,
  lookup: GrantSourceLookup,
  profile: UserProfile,
): Promise<void> {
  const nobody: UserState = { status: 'active', profile: { ...profile, roleId: null, groupIds: [] }, overrides: {} };
  await assertCallerMayChangeUser(state, lookup, {
    targetId: '',
    target: nobody,
    changes: { roleId: profile.roleId, groupIds: profile.groupIds },
    fromNothing: true,
  });
}

export async function assertCallerMayChangeUser(
  state: Pick<AppState, 'can' | 'principal'>,
  lookup: GrantSourceLookup,
  change: UserChange,
): Promise<void> {
  const current = change.target.profile!;
  const { tenantId } = state.principal;
  const next = { ...current, ...change.changes };
  const [actorHolds, before, after] = await Promise.all([
    actorPermissions(state),
    levelsOf(lookup, tenantId, current, change.target),
    levelsOf(lookup, tenantId, next, change.target),
  ]);
  const changed = protectedChanges(current, change.target.status === 'active', change.changes, change.isActive);
  const verdict = decideUserChange({
    self: change.targetId === state.principal.userId,
    actorHolds,
    targetBefore: change.fromNothing ? [] : allowedPermissions(effectivePermissions(before)),
    targetAfter: allowedPermissions(effectivePermissions(after)),
    protectedChanges: change.invitation ? [...changed, 'invitation'] : changed,
  });
  if (!verdict.allowed) throw forbidden(verdict.reason);
}
