import Router from '@koa/router';
import { GROUPS, type GroupDoc } from '../projections/groups.js';
import type { GrantSource } from '../src/auth/effective-permissions.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const groupView = (doc: GroupDoc) => ({
  id: doc.id,
  name: doc.name,
  description: doc.description,
  permissions: doc.permissions,
  member_ids: doc.memberIds,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export async function findGroup(reader: ReadModelReader, tenantId: string, id: string) {
  const doc = await reader.get<GroupDoc>(GROUPS, id);
  return doc && doc.tenantId === tenantId ? doc : null;
}

/** The tenant's groups among `ids` (others, and other tenants' groups, are left out). */
export async function findGroupsAmong(reader: ReadModelReader, tenantId: string, ids: string[]): Promise<GroupDoc[]> {
  if (ids.length === 0) return [];
  return reader.find<GroupDoc>(GROUPS, { tenantId, id: { $in: ids } });
}

export const groupGrants = (doc: GroupDoc): GrantSource => ({ id: doc.id, permissions: doc.permissions });

export function groupQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();

  router.get('/groups', requires('iam:read'), async (ctx) => {
    const filter = { tenantId: ctx.state.principal.tenantId };
    const { items, page } = await readPage<GroupDoc>(deps.reader, GROUPS, filter, [['createdAt', 'asc']], pageRequest(ctx));
    okPage(ctx, items.map(groupView), page);
  });

  router.get('/groups/:id', requires('iam:read'), async (ctx) => {
    const doc = await findGroup(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('group');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, groupView(doc));
  });
  return router;
}
