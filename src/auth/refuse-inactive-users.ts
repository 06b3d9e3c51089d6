import type { Middleware } from 'koa';
import { forbidden } from '../http/problem.js';
import type { AppState } from '../http/state.js';
import type { IamPermissionResolver } from './iam-permission-resolver.js';

/**
 * A deactivated or removed user's tokens are refused on every route (403: the token is valid, the
 * user may not act). Tokens stay valid at the provider until they expire, so this check runs on
 * every request, from the resolver's cache.
 */
export function refuseInactiveUsers(resolver: Pick<IamPermissionResolver, 'resolve'>): Middleware<AppState> {
  return async (ctx, next) => {
    const { standing } = await resolver.resolve(ctx.state.principal);
    if (standing === 'deactivated' || standing === 'removed') {
      throw forbidden('this user is deactivated or no longer a member of the tenant');
    }
    await next();
  };
}
