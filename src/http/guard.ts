import type { Middleware } from 'koa';
import type { Permission } from '../access/permissions.js';
import { forbidden } from './problem.js';
import type { AppState } from './state.js';

/**
 * Route guard: the request's principal must hold `permission`. Sits on every route, so the
 * permission table is enforced in one place (the resolver behind ctx.state.can).
 */
export function requires(permission: Permission): Middleware<AppState> {
  const guard: Middleware<AppState> = async (ctx, next) => {
    if (!(await ctx.state.can(permission))) {
      throw forbidden(`this operation requires the permission ${permission}`);
    }
    await next();
  };
  // Read by the route catalogue (README, isolation test) to know what guards a route.
  Object.defineProperty(guard, 'permission', { value: permission });
  return guard;
}
