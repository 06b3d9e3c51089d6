import type { User } from '../src/contract/iam.js';
import { USERS, type UserDoc } from '../projections/users.js';
import { badRequest } from '../src/http/problem.js';
import { optionalString } from '../src/http/optional-string.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

/** The User resource (SPEC.md, User) plus invitation_status. Overrides are not shown (spec). */
export const userView = (doc: UserDoc): User => ({
  id: doc.id,
  email: doc.email,
  phone: (doc.phone as string | null | undefined) ?? null,
  name: doc.name,
  role_id: optionalString(doc.roleId),
  group_ids: doc.groupIds,
  created_at: doc.createdAt,
  last_login: doc.lastLogin,
  is_active: doc.isActive,
  invitation_status: doc.invitationStatus,
});

/** A user of the tenant as the API shows it: removed users do not exist any more. */
export const findUser = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<UserDoc>(reader, USERS, tenantId, id, (doc) => !doc.removed);

function listFilter(query: Record<string, string | string[] | undefined>): Filter {
  const filter: Filter = { removed: false };
  const { is_active: isActive, email, group_id: groupId } = query;
  if (isActive !== undefined) {
    if (isActive !== 'true' && isActive !== 'false')
      throw badRequest('is_active must be true or false', [{ path: '/is_active', message: 'invalid' }]);
    filter.isActive = isActive === 'true';
  }
  if (email !== undefined) {
    if (typeof email !== 'string' || email === '')
      throw badRequest('email must be one address', [{ path: '/email', message: 'invalid' }]);
    filter.emailLower = email.trim().toLowerCase();
  }
  if (groupId !== undefined) {
    if (typeof groupId !== 'string' || groupId === '')
      throw badRequest('group_id must be one group id', [{ path: '/group_id', message: 'invalid' }]);
    filter.groupIds = { $contains: groupId };
  }
  return filter;
}

export function userQueryRoutes(deps: { reader: ReadModelReader }) {
  return readModelRoutes<UserDoc>(deps.reader, {
    path: '/users',
    resourceName: 'user',
    permission: 'iam:read',
    collection: USERS,
    sort: [['createdAt', 'desc']],
    view: userView,
    visible: (doc) => !doc.removed,
    accepts: ['is_active', 'email', 'group_id'],
    listFilter: (ctx) => listFilter(ctx.query),
  });
}
