/**
 * GET /api/v1/me: who the token speaks for, and what it may do. The dashboard reads it once after
 * sign-in to hide or disable what the caller lacks the permission for.
 *
 * Any valid token may ask (no permission guards it): a principal may always learn its own
 * permissions, which is also what every 403 would tell it one route at a time. The permissions are
 * the ones the route guards use (the same resolver and cache), so the page and the API agree.
 *
 * A principal with a user record in the tenant is a `user` (name and email from the record); one
 * without (the built-in provider's development client, a service client, a first administrator)
 * is a `client`, whose role level is the token's `roles` claim.
 */
import type { Me } from '../src/contract/iam.js';
import Router from '@koa/router';
import type { ResolvedPrincipal } from '../src/auth/iam-permission-resolver.js';
import { allowedPermissions } from '../src/auth/effective-permissions.js';
import type { Principal } from '../src/access/principal.js';
import { ok } from '../src/http/envelope.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { anyCaller } from '../src/http/guard.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { findUser } from './users.js';

export interface MeDeps {
  reader: ReadModelReader;
  /** The permission resolver the route guards use (src/auth/iam-permission-resolver.ts). */
  resolve: (principal: Principal) => Promise<ResolvedPrincipal>;
}

export function meQueryRoutes(deps: MeDeps) {
  const router = new Router<AppState>();
  router.get('/me', anyCaller(), queryParameters([]), async (ctx) => {
    const principal = ctx.state.principal;
    const [user, resolved] = await Promise.all([
      findUser(deps.reader, principal.tenantId, principal.userId),
      deps.resolve(principal),
    ]);
    const me: Me = {
      principal: {
        kind: user ? 'user' : 'client',
        subject: principal.subject,
        user_id: principal.userId,
        tenant_id: principal.tenantId,
        env_id: principal.envId,
        name: user?.name ?? null,
        email: user?.email ?? principal.email ?? null,
        role_id: user ? user.roleId || null : null,
        group_ids: user?.groupIds ?? [],
        // What the token claims; it decides only for a principal without a user record.
        token_roles: principal.roles,
      },
      allowed: allowedPermissions(resolved.effective),
      permissions: Object.fromEntries(
        Object.entries(resolved.effective).map(([permission, d]) => [
          permission,
          { allowed: d.allowed, decided_by: d.decidedBy, sources: d.sources },
        ]),
      ),
    };
    ok(ctx, me);
  });
  return router;
}
