/**
 * The Koa application: small middlewares composed in one visible place.
 *
 *   request id + access log + duration metric
 *   → Connection: close on an answer given before the request's body arrived (close-after-unread-body.ts)
 *   → problem+json errors
 *   → CORS (preflights answered here, before authentication)
 *   → public routes (health, metrics, identity provider, OpenAPI document and reference page),
 *     each reading its JSON body first when it is the route that matched
 *   → authentication (every other route), before a single body byte is read, so an anonymous
 *     client cannot hold a connection by trickling a body → JSON body (1 MiB; 415 for other
 *     types, form bodies only on FORM_BODY_PATHS) → permission check helper
 *   → API routes, under /api/v1 and, for the paths the spec lists unprefixed, also at the root;
 *     a request goes to the modules that serve its first path segment (segment-dispatch.ts)
 */
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import type { PermissionResolver } from '../access/permission-resolver.js';
import type { PlatformMetrics } from '../metrics.js';
import { jsonBody } from './body.js';
import { closeAfterUnreadBody } from './close-after-unread-body.js';
import { cors } from './cors.js';
import { problemJson } from './error-handler.js';
import { requestContext } from './request-context.js';
import { segmentDispatch } from './segment-dispatch.js';
import type { AppState } from './state.js';

export interface ApiModule {
  /** Builds the module's router (called once per mount point). */
  routes: () => Router<AppState>;
  /** Also serve the module without the /api/v1 prefix (paths the spec lists unprefixed). */
  alias: boolean;
}

export interface AppDeps {
  logger: Logger;
  metrics: PlatformMetrics;
  publicRoutes: Router[];
  authenticate: Middleware;
  permissions: PermissionResolver;
  /** Runs after authentication and before any route: e.g. deactivated users are refused here. */
  afterAuthentication?: Middleware<AppState>[];
  modules: ApiModule[];
  /** Browser origins allowed by CORS (CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
}

export const API_PREFIX = '/api/v1';

export function createApp(deps: AppDeps) {
  const app = new Koa<AppState>();
  app.proxy = true;
  app.silent = true;

  // `api` and `root` hold every route, for the route table (src/openapi); requests are dispatched
  // by their first path segment to the modules that serve it (segment-dispatch.ts), the same routes.
  const api = new Router<AppState>({ prefix: API_PREFIX });
  const root = new Router<AppState>();
  const apiModules: Router<AppState>[] = [];
  const rootModules: Router<AppState>[] = [];
  for (const module of deps.modules) {
    const served = module.routes();
    api.use(served.routes());
    apiModules.push(served);
    if (module.alias) {
      const aliased = module.routes();
      root.use(aliased.routes());
      rootModules.push(aliased);
    }
  }

  const withPermissions: Middleware<AppState> = async (ctx, next) => {
    const cache = new Map<string, Promise<boolean>>();
    ctx.state.can = (permission) => {
      let decision = cache.get(permission);
      if (!decision) cache.set(permission, (decision = deps.permissions.can(ctx.state.principal, permission)));
      return decision;
    };
    ctx.state.canStill = (permission) => deps.permissions.can(ctx.state.principal, permission);
    await next();
  };

  app.use(requestContext(deps.logger, deps.metrics));
  app.use(closeAfterUnreadBody);
  app.use(problemJson);
  app.use(cors(deps.corsOrigins ?? []));
  const body = jsonBody();
  // No public path lies under /api/v1 (checked here), so an API request skips the public routers'
  // matching altogether: it would try every one of their routes on every request (bench/README.md).
  const apiPathPrefix = `${API_PREFIX}/`;
  for (const router of deps.publicRoutes) {
    const shadowed = router.stack.find(
      (layer) => typeof layer.path !== 'string' || layer.path.startsWith(apiPathPrefix),
    );
    if (shadowed)
      throw new Error(`public route ${String(shadowed.path)} may lie under ${API_PREFIX}; serve it from an API module`);
    const routes = router.routes() as unknown as Middleware<AppState>;
    app.use((ctx, next) => {
      if (ctx.path.startsWith(apiPathPrefix) || !router.match(ctx.path, ctx.method).route) return next();
      return body(ctx, () => routes(ctx, next));
    });
  }
  app.use(deps.authenticate);
  app.use(body);
  app.use(withPermissions);
  for (const middleware of deps.afterAuthentication ?? []) app.use(middleware);
  app.use(segmentDispatch(API_PREFIX, apiModules));
  app.use(segmentDispatch('', rootModules));
  return { app, routers: [api, root] };
}
