/**
 * Gathers, from the read models, every level that effective-permission resolution looks at
 * (src/auth/effective-permissions.ts): the user's overrides, groups and role, and the tenant
 * defaults. Every lookup is scoped to the principal's tenant: a user id of another tenant is
 * "no record".
 */
import { USER_PERMISSION_OVERRIDES, type UserDoc, type UserOverridesDoc } from '../../projections/users.js';
import type { PermissionLevels } from './effective-permissions.js';
import type { PermissionSourcesLookup, UserStanding } from './iam-permission-resolver.js';
import type { Principal } from './principal.js';
import type { ReadModelReader } from '../readstore/port.js';
import { findGroupsAmong, groupGrants } from '../../queries/groups.js';
import { findRole, roleGrants, rolesNamed } from '../../queries/roles.js';
import { tenantDefaults } from '../../queries/tenant-defaults.js';
import { findUserRecord } from '../../queries/users.js';

export async function permissionLevelsOfUser(reader: ReadModelReader, user: UserDoc): Promise<PermissionLevels> {
  const [overrides, groups, role, defaults] = await Promise.all([
    reader.get<UserOverridesDoc>(USER_PERMISSION_OVERRIDES, user.id),
    findGroupsAmong(reader, user.tenantId, user.groupIds),
    user.roleId ? findRole(reader, user.tenantId, user.roleId) : null,
    tenantDefaults(reader, user.tenantId),
  ]);
  return {
    overrides: overrides && overrides.tenantId === user.tenantId ? overrides.permissions : {},
    groups: groups.map(groupGrants),
    roles: role ? [roleGrants(role)] : [],
    tenantDefaults: defaults?.permissions ?? {},
  };
}

const standingOf = (user: UserDoc): UserStanding => (user.removed ? 'removed' : user.isActive ? 'active' : 'deactivated');

export function readModelPermissionSources(reader: ReadModelReader): PermissionSourcesLookup {
  return {
    async forPrincipal(principal: Principal) {
      const user = await findUserRecord(reader, principal.tenantId, principal.userId);
      if (user) return { standing: standingOf(user), levels: await permissionLevelsOfUser(reader, user) };
      // No user record (the first administrator, a service client): the token's roles are its role level.
      const [roles, defaults] = await Promise.all([rolesNamed(reader, principal.tenantId, principal.roles), tenantDefaults(reader, principal.tenantId)]);
      return { standing: 'no_record', levels: { overrides: {}, groups: [], roles, tenantDefaults: defaults?.permissions ?? {} } };
    },
  };
}
