import Router from '@koa/router';
import { USERS, type UserDoc } from '../projections/users.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { badRequest, notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

/** The User resource (SPEC.md, User) plus invitation_status. Overrides are not shown (spec). */
export const userView = (doc: UserDoc) => ({
  id: doc.id,
  email: doc.email,
  name: doc.name,
  role_id: doc.roleId,
  group_ids: doc.groupIds,
  created_at: doc.createdAt,
  last_login: doc.lastLogin,
  is_active: doc.isActive,
  invitation_status: doc.invitationStatus,
});

/** The user's document, also when it was removed from the tenant (for the token checks). */
export async function findUserRecord(reader: ReadModelReader, tenantId: string, id: string) {
  const doc = await reader.get<UserDoc>(USERS, id);
  return doc && doc.tenantId === tenantId ? doc : null;
}

/** A user of the tenant as the API shows it: removed users do not exist any more. */
export async function findUser(reader: ReadModelReader, tenantId: string, id: string) {
  const doc = await findUserRecord(reader, tenantId, id);
  return doc && !doc.removed ? doc : null;
}

function listFilter(tenantId: string, query: Record<string, string | string[] | undefined>): Filter {
  const filter: Filter = { tenantId, removed: false };
  const { is_active: isActive, email, group_id: groupId } = query;
  if (isActive !== undefined) {
    if (isActive !== 'true' && isActive !== 'false') throw badRequest('is_active must be true or false', [{ path: '/is_active', message: 'invalid' }]);
    filter.isActive = isActive === 'true';
  }
  if (email !== undefined) {
    if (typeof email !== 'string' || email === '') throw badRequest('email must be one address', [{ path: '/email', message: 'invalid' }]);
    filter.emailLower = email.trim().toLowerCase();
  }
  if (groupId !== undefined) {
    if (typeof groupId !== 'string' || groupId === '') throw badRequest('group_id must be one group id', [{ path: '/group_id', message: 'invalid' }]);
    filter.groupIds = { $contains: groupId };
  }
  return filter;
}

export function userQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();

  router.get('/users', requires('iam:read'), async (ctx) => {
    const filter = listFilter(ctx.state.principal.tenantId, ctx.query);
    const { items, page } = await readPage<UserDoc>(deps.reader, USERS, filter, [['createdAt', 'desc']], pageRequest(ctx));
    okPage(ctx, items.map(userView), page);
  });

  router.get('/users/:id', requires('iam:read'), async (ctx) => {
    const doc = await findUser(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('user');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, userView(doc));
  });
  return router;
}
