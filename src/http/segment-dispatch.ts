/**
 * Routes a request to the modules that can serve its first path segment, instead of testing every
 * route of the platform in turn. @koa/router tries each of its layers' regular expressions on every
 * request, so one router holding all API modules paid for all 80-odd routes on each request, and
 * the cost grows with every resource the platform gains (bench/README.md).
 *
 * The answers do not change. A request whose first segment is S goes to a router that holds, in
 * mount order, every module with a route whose first segment is S, and every module with a route
 * whose first segment is not a plain word (a parameter, a pattern, a router-level middleware):
 * every route that could match the path is there, in the order the single router had them. Each
 * router answers 404, 405 and 501 like the single one (the same methods implemented, the same
 * `allowedMethods`). Segments compare without case, as @koa/router matches by default.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './state.js';

/** A first segment made only of these is matched literally by path-to-regexp. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.~-]*$/;

/**
 * The first segment of a route's path as a literal (lower case), or null when it is not one: a
 * parameter or pattern, a regular expression, a router-level middleware (its path is a pattern).
 */
export function literalFirstSegment(path: string | RegExp, pathIsRegExp = false): string | null {
  if (typeof path !== 'string' || pathIsRegExp || !path.startsWith('/')) return null;
  const segment = path.slice(1).split('/', 1)[0]!;
  return PLAIN_SEGMENT.test(segment) ? segment.toLowerCase() : null;
}

/**
 * The first segment of a request path below `prefix` (lower case), or null when the path is not
 * below it. Only the prefix and the segment are lower-cased, not the whole path of every request.
 */
export function requestFirstSegment(path: string, prefix: string): string | null {
  if (
    prefix !== '' &&
    (path.slice(0, prefix.length).toLowerCase() !== prefix ||
      (path.length > prefix.length && path[prefix.length] !== '/'))
  )
    return null;
  const start = prefix.length + 1;
  const end = path.indexOf('/', start);
  return (end === -1 ? path.slice(start) : path.slice(start, end)).toLowerCase();
}

/**
 * One middleware serving `modules` under `prefix` (already lower case, no trailing slash), with
 * their `allowedMethods` answers. The modules are routers as built by their areas.
 */
export function segmentDispatch(prefix: string, modules: Router<AppState>[]): Middleware<AppState> {
  const segmentsOf = modules.map((module) =>
    module.stack.map((layer) => literalFirstSegment(layer.path, layer.opts.pathAsRegExp === true)),
  );
  const anywhere = segmentsOf.map((segments) => segments.some((segment) => segment === null));
  const routerFor = (include: (index: number) => boolean): Middleware<AppState> => {
    const router = new Router<AppState>(prefix === '' ? {} : { prefix });
    modules.forEach((module, index) => include(index) && router.use(module.routes()));
    // As app.use(routes) then app.use(allowedMethods): the second runs when the first calls next.
    const routes = router.routes() as unknown as Middleware<AppState>;
    const allowed = router.allowedMethods() as unknown as Middleware<AppState>;
    return (ctx, next) => routes(ctx, () => allowed(ctx, next));
  };
  const bySegment = new Map<string, Middleware<AppState>>();
  for (const segment of new Set(segmentsOf.flat().filter((s): s is string => s !== null))) {
    bySegment.set(
      segment,
      routerFor((index) => anywhere[index]! || segmentsOf[index]!.includes(segment)),
    );
  }
  const elsewhere = routerFor((index) => anywhere[index]!);
  return (ctx, next) => {
    const segment = requestFirstSegment(ctx.path, prefix);
    return ((segment === null ? undefined : bySegment.get(segment)) ?? elsewhere)(ctx, next);
  };
}
