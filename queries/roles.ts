import type { Role } from '../src/contract/iam.js';
import Router from '@koa/router';
import { ROLES, type RoleDoc } from '../projections/roles.js';
import { BUILT_IN_ROLES, type BuiltInRole } from '../src/auth/built-in-roles.js';
import { findRole } from '../src/auth/iam-lookups.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { encodeCursor, pageRequest, type PageRequest } from '../src/http/pagination.js';
import { notFound } from '../src/http/problem.js';
import { listParameters, queryParameters } from '../src/http/query-parameters.js';
import { optionalString } from '../src/http/optional-string.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader, Scalar } from '../src/readstore/port.js';

const isCustomRole = (role: RoleDoc | BuiltInRole): role is RoleDoc => typeof (role as RoleDoc).tenantId === 'string';

/** A role as clients see it. Built-in roles have no timestamps. */
export const roleView = (role: RoleDoc | BuiltInRole): Role => ({
  id: role.id,
  name: role.name,
  description: optionalString(role.description),
  permissions: role.permissions,
  built_in: !isCustomRole(role),
  created_at: isCustomRole(role) ? role.createdAt : null,
  updated_at: isCustomRole(role) ? role.updatedAt : null,
});

/**
 * One page of the tenant's roles: the built-in roles first, then custom roles oldest first. The
 * built-in ones sort as if created at "" (before any timestamp), so one keyset cursor covers both.
 */
async function readRolePage(reader: ReadModelReader, tenantId: string, page: PageRequest) {
  const after = page.after;
  const afterKey = after ? ([String(after.values[0] ?? ''), after.id] as const) : undefined;
  const builtIn = BUILT_IN_ROLES.filter((role) => !afterKey || (afterKey[0] === '' && role.id > afterKey[1])).sort(
    (a, b) => (a.id < b.id ? -1 : 1),
  );
  const custom = await reader.find<RoleDoc>(
    ROLES,
    { tenantId },
    { sort: [['createdAt', 'asc']], limit: page.limit + 1, after },
  );
  const combined = [...builtIn, ...custom];
  const items = combined.slice(0, page.limit);
  const last = items.at(-1);
  const cursorValues: Scalar[] = last && isCustomRole(last) ? [last.createdAt] : [''];
  const nextCursor = combined.length > page.limit && last ? encodeCursor(cursorValues, last.id) : null;
  return { items, page: { limit: page.limit, next_cursor: nextCursor } };
}

export function roleQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();

  router.get('/roles', requires('iam:read'), listParameters(), async (ctx) => {
    const { items, page } = await readRolePage(deps.reader, ctx.state.principal.tenantId, pageRequest(ctx));
    okPage(ctx, items.map(roleView), page);
  });

  router.get('/roles/:id', requires('iam:read'), queryParameters([]), async (ctx) => {
    const role = await findRole(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!role) throw notFound('role');
    if (isCustomRole(role)) ctx.set('ETag', etagOf(role.revision));
    ok(ctx, roleView(role));
  });
  return router;
}
