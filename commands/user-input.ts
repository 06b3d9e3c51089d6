/**
 * What clients send for users (SPEC.md, User: email, name, role_id, group_ids, is_active), and
 * the check that role_id and group_ids name a role and groups of the caller's tenant.
 */
import { z } from 'zod';
import type { GrantSource } from '../src/auth/effective-permissions.js';
import { badRequest, type ProblemFieldError } from '../src/http/problem.js';
import type { UserProfile } from './users.js';

const email = z.string().trim().max(254).pipe(z.email());
const name = z.string().trim().min(1).max(200);
/** null: no role, so the tenant defaults apply. */
const roleId = z.string().trim().min(1).max(100).nullable();
const groupIds = z.array(z.string().min(1).max(100)).max(100).transform((ids) => [...new Set(ids)]);

export const createUserBodySchema = z.strictObject({
  email,
  name,
  role_id: roleId.default(null),
  group_ids: groupIds.default([]),
  is_active: z.boolean().default(true),
});

/** PUT: the whole profile; is_active may be left out (then it stays as it is). */
export const replaceUserBodySchema = z.strictObject({ email, name, role_id: roleId, group_ids: groupIds, is_active: z.boolean().optional() });

export const patchUserBodySchema = z
  .strictObject({ email: email.optional(), name: name.optional(), role_id: roleId.optional(), group_ids: groupIds.optional(), is_active: z.boolean().optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one of email, name, role_id, group_ids, is_active' });

export interface UserChanges {
  changes: Partial<UserProfile>;
  isActive?: boolean;
}

export function userChangesFrom(body: z.infer<typeof patchUserBodySchema>): UserChanges {
  const changes: Partial<UserProfile> = {};
  if (body.email !== undefined) changes.email = body.email;
  if (body.name !== undefined) changes.name = body.name;
  if (body.role_id !== undefined) changes.roleId = body.role_id;
  if (body.group_ids !== undefined) changes.groupIds = body.group_ids;
  return { changes, isActive: body.is_active };
}

/** Read-model lookups of the caller's tenant (built-in roles included). */
export interface GrantSourceLookup {
  findRole(tenantId: string, id: string): Promise<GrantSource | null>;
  findGroups(tenantId: string, ids: string[]): Promise<GrantSource[]>;
}

/**
 * The role and groups a user is to get, or a 400 naming every one that is not in the tenant.
 * Another tenant's role or group is reported exactly like one that does not exist.
 */
export async function resolveAssignments(lookup: GrantSourceLookup, tenantId: string, wanted: { roleId?: string | null; groupIds?: string[] }) {
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
