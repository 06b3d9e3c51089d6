import type { Middleware } from 'koa';
import type { Permission } from '../access/permissions.js';
import { forbidden } from './problem.js';
import { reachReadPosition } from './read-position.js';
import type { AppState } from './state.js';

/**
 * Route guard: the request's principal must hold `permission`. Sits on every route, so the
 * permission table is enforced in one place (the resolver behind ctx.state.can). Only once the
 * caller is authorised does a GET wait for the read position it named.
 */
export function requires(permission: Permission): Middleware<AppState> {
  const guard: Middleware<AppState> = async (ctx, next) => {
    if (!(await ctx.state.can(permission))) {
      throw forbidden(`this operation requires the permission ${permission}`);
    }
    await reachReadPosition(ctx);
    await next();
  };
  // Read by the route catalogue (README, isolation test) to know what guards a route.
  Object.defineProperty(guard, 'permission', { value: permission });
  return guard;
}

/**
 * Route guard of the routes any valid token may use (`/me`, `/user-names`): authentication and the
 * deactivated-user check are all there is to pass; then a GET waits for the read position it named.
 */
export const anyCaller = (): Middleware<AppState> => async (ctx, next) => {
  await reachReadPosition(ctx);
  await next();
};
