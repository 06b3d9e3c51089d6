/**
 * Anti-escalation: iam:write lets a caller create and edit users, but not hand out more than it
 * holds. Assigning a role or groups that allow an acting permission (anything but `:read`) the
 * caller lacks needs iam:admin; without this rule any iam:write holder could create an owner
 * account for itself. Read permissions are not treated as escalation, so a caller whose own reads
 * are narrowed (e.g. by a group deny) can still create ordinary viewers.
 */
import { permissionsAllowedBy, type GrantSource } from './effective-permissions.js';
import type { Permission } from '../access/permissions.js';
import type { PermissionGrants } from '../events/permission-grants.js';
import { badRequest, forbidden, type ProblemFieldError } from '../http/problem.js';
import type { AppState } from '../http/state.js';

export async function assertCallerMayAssign(state: Pick<AppState, 'can'>, assigned: GrantSource[]): Promise<void> {
  if (assigned.length === 0 || (await state.can('iam:admin'))) return;
  const granted = new Set<Permission>(
    assigned.flatMap((source) => permissionsAllowedBy(source.permissions)).filter((p) => !p.endsWith(':read')),
  );
  const beyond: Permission[] = [];
  for (const permission of granted) if (!(await state.can(permission))) beyond.push(permission);
  if (beyond.length > 0) {
    const what = assigned.map((source) => source.id).join(', ');
    throw forbidden(
      `assigning ${what} would grant permissions you do not hold (${beyond.join(', ')}); that needs iam:admin`,
    );
  }
}

export interface GrantSourceLookup {
  findRole(tenantId: string, id: string): Promise<GrantSource | null>;
  findGroups(tenantId: string, ids: string[]): Promise<GrantSource[]>;
  findTenantDefaults(tenantId: string): Promise<PermissionGrants>;
}

/**
 * The role and groups a user is to get, or a 400 naming every one that is not in the tenant.
 * Another tenant's role or group is reported exactly like one that does not exist.
 */
export async function resolveAssignments(
  lookup: GrantSourceLookup,
  tenantId: string,
  wanted: { roleId?: string | null; groupIds?: string[] },
) {
  const errors: ProblemFieldError[] = [];
  const missing: string[] = [];
  const role = wanted.roleId ? await lookup.findRole(tenantId, wanted.roleId) : null;
  if (wanted.roleId && !role) {
    errors.push({ path: '/role_id', message: `no role ${wanted.roleId} in this tenant` });
    missing.push(`role ${wanted.roleId}`);
  }
  const groups = wanted.groupIds?.length ? await lookup.findGroups(tenantId, wanted.groupIds) : [];
  wanted.groupIds?.forEach((id, index) => {
    if (groups.some((group) => group.id === id)) return;
    errors.push({ path: `/group_ids/${index}`, message: `no group ${id} in this tenant` });
    missing.push(`group ${id}`);
  });
  if (errors.length > 0) throw badRequest(`unknown ${missing.join(', ')}`, errors);
  return { role, groups };
}
