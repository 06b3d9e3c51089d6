/**
 * The routes the application actually serves, read from its Koa routers: method, path, the
 * permission its guard checks (src/http/guard.ts) and the query parameters it declares
 * (src/http/query-parameters.ts). The OpenAPI document is built from this table, so a route's
 * permission and parameters are documented from the very middleware that enforces them.
 */
import type Router from '@koa/router';
import { API_PREFIX } from '../http/app.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ServedRoute {
  method: HttpMethod;
  /** As served, in Koa form (`/api/v1/users/:id`). */
  path: string;
  /** The path inside its area (`/users/:id`): the key of its documentation. */
  key: string;
  /** public: no token; api: under /api/v1; alias: the same route without the prefix. */
  mount: 'public' | 'api' | 'alias';
  permission: string | null;
  /** null when the route declares none (it then takes no query parameters it reads). */
  queryParameters: string[] | null;
}

export interface MountedRouters {
  public: readonly Router<any, any>[];
  /** The router under /api/v1. */
  api: Router<any, any>;
  /** The router of the unprefixed aliases. */
  alias: Router<any, any>;
}

/** HEAD is answered by every GET route (Koa's router adds it); it is not documented separately. */
const DOCUMENTED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

type Tagged = { permission?: string; acceptedQueryParameters?: string[] };

export function servedRoutes(routers: MountedRouters): ServedRoute[] {
  const mounts = [
    ...routers.public.map((router) => ['public', router] as const),
    ['api', routers.api] as const,
    ['alias', routers.alias] as const,
  ];
  const routes: ServedRoute[] = [];
  for (const [mount, router] of mounts) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue;
      const middleware = layer.stack as Tagged[];
      const permission = middleware.map((m) => m.permission).find((p) => p !== undefined) ?? null;
      const queryParameters = middleware.map((m) => m.acceptedQueryParameters).find((p) => p !== undefined) ?? null;
      const key =
        mount === 'api' && layer.path.startsWith(API_PREFIX) ? layer.path.slice(API_PREFIX.length) : layer.path;
      for (const method of layer.methods) {
        if (!DOCUMENTED_METHODS.has(method)) continue;
        routes.push({
          method: method.toLowerCase() as HttpMethod,
          path: layer.path,
          key,
          mount,
          permission,
          queryParameters,
        });
      }
    }
  }
  return routes;
}

/** `/users/:id` → `/users/{id}` */
export const openApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The path parameters of a Koa path, in order. */
export const pathParameterNames = (koaPath: string) => [...koaPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
