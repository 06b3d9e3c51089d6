/** The platform's OpenAPI document, built once from its routers and the documented operations. */
import type Router from '@koa/router';
import { readFileSync } from 'node:fs';
import { openApiDocument } from './document.js';
import { documentedOperations } from './operations.js';
import { servedRoutes } from './route-table.js';

const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ??
  '0.0.0';

export interface PlatformRouters {
  public: readonly Router<any, any>[];
  /** [the /api/v1 router, the router of the unprefixed aliases], as createApp returns them. */
  api: readonly [Router<any, any>, Router<any, any>] | readonly Router<any, any>[];
}

export function platformApiDocument(routers: PlatformRouters, embeddedIdp: boolean, baseUrl?: string) {
  const [api, alias] = routers.api;
  const routes = servedRoutes({ public: routers.public, api: api!, alias: alias! });
  return openApiDocument({ routes, operations: documentedOperations, version: packageVersion(), embeddedIdp, baseUrl });
}
