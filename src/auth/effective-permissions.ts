/**
 * Effective permissions (SPEC.md, User; issue 3 "Resolution"). Pure: the caller gathers the
 * permission maps of every level; this decides. For each permission the first level with an
 * opinion decides:
 *   1. the user's overrides;
 *   2. the user's groups: allow if any group allows; deny if some deny and none allows;
 *   3. the user's role (or, for a principal without a user record, the roles of its token,
 *      combined like groups);
 *   4. the tenant defaults;
 *   5. no opinion anywhere: deny.
 */
import type { PermissionGrants } from '../events/permission-grants.js';
import { ALL_PERMISSIONS, type Permission } from '../access/permissions.js';

export type DecidingLevel = 'user_override' | 'group' | 'role' | 'tenant_default' | 'none';

/** A named set of grants: a group or a role, so a decision can say which ones decided. */
export interface GrantSource {
  id: string;
  permissions: PermissionGrants;
}

export interface PermissionLevels {
  overrides: PermissionGrants;
  groups: GrantSource[];
  roles: GrantSource[];
  tenantDefaults: PermissionGrants;
}

export interface PermissionDecision {
  allowed: boolean;
  decidedBy: DecidingLevel;
  /** The groups or roles whose opinion decided (empty for the other levels). */
  sources: string[];
}

export type EffectivePermissions = Record<Permission, PermissionDecision>;

/** Several sources at one level: any allow wins; otherwise any deny; otherwise no opinion. */
function combined(sources: GrantSource[], permission: Permission): { allowed: boolean; sources: string[] } | undefined {
  const allowing = sources.filter((source) => source.permissions[permission] === 'allow').map((source) => source.id);
  if (allowing.length > 0) return { allowed: true, sources: allowing };
  const denying = sources.filter((source) => source.permissions[permission] === 'deny').map((source) => source.id);
  if (denying.length > 0) return { allowed: false, sources: denying };
  return undefined;
}

function single(grants: PermissionGrants, permission: Permission): boolean | undefined {
  const grant = grants[permission];
  return grant === undefined ? undefined : grant === 'allow';
}

export function decidePermission(levels: PermissionLevels, permission: Permission): PermissionDecision {
  const override = single(levels.overrides, permission);
  if (override !== undefined) return { allowed: override, decidedBy: 'user_override', sources: [] };
  const group = combined(levels.groups, permission);
  if (group) return { ...group, decidedBy: 'group' };
  const role = combined(levels.roles, permission);
  if (role) return { ...role, decidedBy: 'role' };
  const fallback = single(levels.tenantDefaults, permission);
  if (fallback !== undefined) return { allowed: fallback, decidedBy: 'tenant_default', sources: [] };
  return { allowed: false, decidedBy: 'none', sources: [] };
}

export function effectivePermissions(levels: PermissionLevels): EffectivePermissions {
  return Object.fromEntries(
    ALL_PERMISSIONS.map((permission) => [permission, decidePermission(levels, permission)]),
  ) as EffectivePermissions;
}

export const allowedPermissions = (effective: EffectivePermissions): Permission[] =>
  ALL_PERMISSIONS.filter((permission) => effective[permission].allowed);

/** The permissions a set of grants allows (what assigning that role or group would hand out). */
export const permissionsAllowedBy = (grants: PermissionGrants): Permission[] =>
  ALL_PERMISSIONS.filter((permission) => grants[permission] === 'allow');
