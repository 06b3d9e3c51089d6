/**
 * Lookups of the IAM read models (users, roles, groups, tenant defaults) that both the query
 * routes and effective-permission resolution use. They live here, below the routes, so that auth
 * never imports a route module. Every lookup is scoped to the tenant it is given.
 */
import { GROUPS, type GroupDoc } from '../../projections/groups.js';
import { ROLES, type RoleDoc } from '../../projections/roles.js';
import { TENANT_PERMISSION_DEFAULTS, type TenantDefaultsDoc } from '../../projections/tenant-defaults.js';
import { USERS, type UserDoc } from '../../projections/users.js';
import { findTenantDoc } from '../http/read-model-routes.js';
import type { ReadModelReader } from '../readstore/port.js';
import { BUILT_IN_ROLES, builtInRole, type BuiltInRole } from './built-in-roles.js';
import type { GrantSource } from './effective-permissions.js';

/** The user's document, also when it was removed from the tenant (for the token checks). */
export const findUserRecord = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<UserDoc>(reader, USERS, tenantId, id);

/** The tenant's groups among `ids` (others, and other tenants' groups, are left out). */
export async function findGroupsAmong(reader: ReadModelReader, tenantId: string, ids: string[]): Promise<GroupDoc[]> {
  if (ids.length === 0) return [];
  return reader.find<GroupDoc>(GROUPS, { tenantId, id: { $in: ids } });
}

export const groupGrants = (doc: GroupDoc): GrantSource => ({ id: doc.id, permissions: doc.permissions });

/** The tenant's defaults; a tenant that never set them has none (every permission open, hence denied). */
export async function tenantDefaults(reader: ReadModelReader, tenantId: string): Promise<TenantDefaultsDoc | null> {
  return reader.get<TenantDefaultsDoc>(TENANT_PERMISSION_DEFAULTS, tenantId);
}

export const findCustomRole = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<RoleDoc>(reader, ROLES, tenantId, id);

/** A role of the tenant: built-in (id = name) or custom. */
export async function findRole(
  reader: ReadModelReader,
  tenantId: string,
  id: string,
): Promise<RoleDoc | BuiltInRole | null> {
  return builtInRole(id) ?? (await findCustomRole(reader, tenantId, id));
}

export const roleGrants = (role: RoleDoc | BuiltInRole): GrantSource => ({
  id: role.id,
  permissions: role.permissions,
});

/** Why a name of a token's `roles` claim grants nothing. */
export interface IgnoredRoleName {
  name: string;
  reason: 'no role has this name' | 'several custom roles have this name';
}

/**
 * The roles a token's `roles` claim names, for a principal without a user record. The claim holds
 * role names, as identity providers send them, matched exactly: built-in roles by their name,
 * custom roles by their name, never by id (ids and names are separate namespaces, so a role named
 * like another role's id can take nothing over). Names are unique per tenant; a name that still
 * matches several custom roles (created before names were reserved) is ambiguous and grants nothing.
 */
export async function rolesNamed(
  reader: ReadModelReader,
  tenantId: string,
  names: string[],
): Promise<{ roles: GrantSource[]; ignored: IgnoredRoleName[] }> {
  if (names.length === 0) return { roles: [], ignored: [] };
  const wanted = [...new Set(names)];
  const custom = await reader.find<RoleDoc>(ROLES, { tenantId, name: { $in: wanted } });
  const roles: GrantSource[] = [];
  const ignored: IgnoredRoleName[] = [];
  for (const name of wanted) {
    const builtIn = BUILT_IN_ROLES.find((role) => role.name === name);
    const named = custom.filter((role) => role.name === name);
    if (builtIn) roles.push(roleGrants(builtIn));
    else if (named.length === 1) roles.push(roleGrants(named[0]!));
    else
      ignored.push({
        name,
        reason: named.length === 0 ? 'no role has this name' : 'several custom roles have this name',
      });
  }
  return { roles, ignored };
}
