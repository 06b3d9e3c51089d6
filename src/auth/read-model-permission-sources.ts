/**
 * Gathers, from the read models, every level that effective-permission resolution looks at
 * (src/auth/effective-permissions.ts): the user's overrides, groups and role, and the tenant
 * defaults. Every lookup is scoped to the principal's tenant: a user id of another tenant is
 * "no record".
 */
import type { Logger } from 'pino';
import { USER_PERMISSION_OVERRIDES, type UserDoc, type UserOverridesDoc } from '../../projections/users.js';
import type { PermissionLevels } from './effective-permissions.js';
import type { PermissionSourcesLookup, UserStanding } from './iam-permission-resolver.js';
import type { Principal } from '../access/principal.js';
import type { ReadModelReader } from '../readstore/port.js';
import {
  findGroupsAmong,
  findRole,
  findUserRecord,
  groupGrants,
  roleGrants,
  rolesNamed,
  tenantDefaults,
  type IgnoredRoleName,
} from './iam-lookups.js';

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

const standingOf = (user: UserDoc): UserStanding =>
  user.removed ? 'removed' : user.isActive ? 'active' : 'deactivated';

/** Remembered per process, so a misconfigured provider does not flood the log (bounded: cleared when full). */
const MAX_REMEMBERED_NAMES = 10_000;

/**
 * `logger`: told once per process about each (tenant, role name) in a token's `roles` claim that
 * grants nothing (no role has that name, or several legacy ones do); such names are ignored.
 */
export function readModelPermissionSources(
  reader: ReadModelReader,
  logger?: Pick<Logger, 'warn'>,
): PermissionSourcesLookup {
  const reported = new Set<string>();
  const report = (tenantId: string, ignored: IgnoredRoleName[]) => {
    for (const { name, reason } of ignored) {
      const key = `${tenantId}\u0000${name}`;
      if (reported.has(key)) continue;
      if (reported.size >= MAX_REMEMBERED_NAMES) reported.clear();
      reported.add(key);
      logger?.warn(
        { tenantId, roleName: name, reason },
        "a role name in a token's roles claim grants nothing; it is ignored",
      );
    }
  };
  return {
    async forPrincipal(principal: Principal) {
      const user = await findUserRecord(reader, principal.tenantId, principal.userId);
      if (user) return { standing: standingOf(user), levels: await permissionLevelsOfUser(reader, user) };
      // No user record (the first administrator, a service client): the token's roles are its role level.
      const [{ roles, ignored }, defaults] = await Promise.all([
        rolesNamed(reader, principal.tenantId, principal.roles),
        tenantDefaults(reader, principal.tenantId),
      ]);
      report(principal.tenantId, ignored);
      return {
        standing: 'no_record',
        levels: { overrides: {}, groups: [], roles, tenantDefaults: defaults?.permissions ?? {} },
      };
    },
  };
}
