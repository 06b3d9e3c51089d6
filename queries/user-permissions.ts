/**
 * GET /api/v1/users/{id}/permission-overrides: the user's overrides as set.
 * GET /api/v1/users/{id}/permissions: the effective set, and for each permission the level that
 * decided it (user_override, group, role, tenant_default, or none = denied for want of an opinion)
 * and which groups or role that was.
 */
import type { PermissionOverrides, UserPermissions } from '../src/contract/iam.js';
import Router from '@koa/router';
import { USER_PERMISSION_OVERRIDES, type UserOverridesDoc } from '../projections/users.js';
import { allowedPermissions, effectivePermissions } from '../src/auth/effective-permissions.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { permissionLevelsOfUser } from '../src/auth/read-model-permission-sources.js';
import { findUser } from './users.js';

export function userPermissionQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();

  router.get('/users/:id/permission-overrides', requires('iam:read'), queryParameters([]), async (ctx) => {
    const user = await findUser(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!user) throw notFound('user');
    const overrides = await deps.reader.get<UserOverridesDoc>(USER_PERMISSION_OVERRIDES, user.id);
    const answer: PermissionOverrides = { user_id: user.id, permissions: overrides?.permissions ?? {} };
    ok(ctx, answer);
  });

  router.get('/users/:id/permissions', requires('iam:read'), queryParameters([]), async (ctx) => {
    const user = await findUser(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!user) throw notFound('user');
    const effective = effectivePermissions(await permissionLevelsOfUser(deps.reader, user));
    const answer: UserPermissions = {
      user_id: user.id,
      // A deactivated user's tokens are refused whatever its permissions say.
      is_active: user.isActive,
      allowed: allowedPermissions(effective),
      permissions: Object.fromEntries(
        Object.entries(effective).map(([permission, d]) => [
          permission,
          { allowed: d.allowed, decided_by: d.decidedBy, sources: d.sources },
        ]),
      ),
    };
    ok(ctx, answer);
  });
  return router;
}
