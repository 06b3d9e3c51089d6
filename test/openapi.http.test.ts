/**
 * The OpenAPI document (src/openapi/): it covers every route the platform serves (walked from its
 * Koa routers here, independently of the generator), names each route's permission and query
 * parameters as the route's own middleware declares them, is valid OpenAPI 3.1, and real answers
 * of the running platform match the documented response schemas.
 */
import test from 'ava';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type Router from '@koa/router';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KoaRouter from '@koa/router';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { requires } from '../src/http/guard.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { openApiDocument } from '../src/openapi/document.js';
import { platformApiDocument } from '../src/openapi/platform-document.js';
import { servedRoutes } from '../src/openapi/route-table.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';

let platform: RunningPlatform;
let document: any;
test.before(async () => {
  // The built-in identity provider, so its routes are served (and must be documented) too.
  platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'http://localhost:3000',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-openapi-')),
      LOG_LEVEL: 'silent',
    }),
  );
  const response = await fetch(`${platform.url}/openapi.json`);
  document = await response.json();
});
test.after.always(async () => platform?.stop());

/** Served on purpose without an entry of their own (method in capitals, the path as the router has it), with the reason. */
const EXCLUDED: Record<string, string> = {
  'GET /docs/:asset': "the static files of the reference page (Swagger UI's script and stylesheet), not an API",
};
const toOpenApi = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

interface Walked {
  method: string;
  path: string;
  permission?: string;
  query?: string[];
  router: 'public' | 'api' | 'alias';
}

function walk(): Walked[] {
  const routers: [Walked['router'], Router<any, any>][] = [
    ...platform.publicRouters.map((router) => ['public', router] as [Walked['router'], Router<any, any>]),
    ['api', platform.routers[0]!],
    ['alias', platform.routers[1]!],
  ];
  const walked: Walked[] = [];
  for (const [kind, router] of routers) {
    for (const layer of router.stack) {
      const middleware = layer.stack as { permission?: string; acceptedQueryParameters?: string[] }[];
      for (const method of layer.methods) {
        walked.push({
          method,
          path: String(layer.path),
          router: kind,
          permission: middleware.find((m) => m.permission)?.permission,
          query: middleware.find((m) => m.acceptedQueryParameters)?.acceptedQueryParameters,
        });
      }
    }
  }
  return walked;
}

test('every route of the router is in the document, with its permission and query parameters', (t) => {
  const routes = walk();
  t.true(routes.length > 150, `walked ${routes.length} method+path pairs`);
  const missing: string[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    // Koa's router answers HEAD wherever it answers GET; HEAD is covered by the GET entry.
    const method = route.method === 'HEAD' ? 'get' : route.method.toLowerCase();
    if (EXCLUDED[`${method.toUpperCase()} ${route.path}`]) continue;
    const operation = document.paths[toOpenApi(route.path)]?.[method];
    if (!operation) {
      missing.push(key);
      continue;
    }
    t.is(operation['x-required-permission'], route.permission, `${key}: permission`);
    if (route.permission)
      t.true(operation.description.includes(route.permission), `${key}: the description names the permission`);
    const documentedQuery = operation.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
    t.deepEqual(documentedQuery, route.query ?? [], `${key}: query parameters`);
    const pathParameters = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    t.deepEqual(
      operation.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name),
      pathParameters,
      `${key}: path parameters`,
    );
    if (route.router === 'public') t.deepEqual(operation.security, [], `${key}: no token`);
    else t.is(operation.security, undefined, `${key}: the bearer token`);
    if (route.router === 'alias') t.is(operation['x-alias-of'], toOpenApi(`/api/v1${route.path}`), `${key}: alias`);
  }
  t.deepEqual(missing, [], 'routes missing from the document');
});

test('the document holds nothing the router does not serve', (t) => {
  const served = new Set(
    walk().map((route) => `${route.method === 'HEAD' ? 'GET' : route.method} ${toOpenApi(route.path)}`),
  );
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
  );
  t.true(documented.length > 100);
  t.deepEqual(
    documented.filter((key) => !served.has(key)),
    [],
  );
});

test('the document is valid OpenAPI 3.1 (and the validator does refuse an invalid one)', async (t) => {
  t.is(document.openapi, '3.1.0');
  const result = await validate(structuredClone(document));
  t.true(result.valid, JSON.stringify(result, null, 1).slice(0, 2000));
  const broken = structuredClone(document);
  broken.paths['/api/v1/alert-rules'].get.responses['200'].content['application/json'].schema.properties.page = {
    $ref: '#/components/schemas/NoSuchSchema',
  };
  t.false((await validate(broken)).valid);
  t.like(document.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  t.is(document.components.securitySchemes.clientCredentials.flows.clientCredentials.tokenUrl, '/oauth/token');
});

test('bodies, ETags, If-Match, problems and streams are documented', (t) => {
  const create = document.paths['/api/v1/notification-channels'].post;
  t.deepEqual(create.requestBody.content['application/json'].schema.required, ['name', 'type', 'config']);
  t.is(create.requestBody.content['application/json'].schema.additionalProperties, false, 'unknown fields are refused');
  t.truthy(create.responses['201'].headers.Location);
  for (const status of ['400', '401', '403', '413', '415', '503'])
    t.truthy(create.responses[status]?.content['application/problem+json'], status);
  const put = document.paths['/api/v1/alert-rules/{id}'].put;
  t.true(put.parameters.some((p: any) => p.$ref === '#/components/parameters/IfMatch'));
  t.truthy(put.responses['409'] && put.responses['404']);
  t.truthy(document.paths['/api/v1/alert-rules/{id}'].get.responses['200'].headers.ETag);
  t.truthy(document.paths['/api/v1/incidents/stream'].get.responses['200'].content['text/event-stream']);
  t.truthy(document.paths['/api/v1/sync/stream'].get.responses['429']);
  t.deepEqual(document.components.schemas.Problem.properties.errors.items.required, ['path', 'message']);
});

test('the generator reports no route without an entry, no entry without a route, no stray parameter', (t) => {
  const built = platformApiDocument({ public: platform.publicRouters, api: platform.routers }, true);
  t.deepEqual(
    built.undocumented.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort(),
    Object.keys(EXCLUDED).sort(),
  );
  t.deepEqual(built.unmatched, []);
  t.deepEqual(built.inconsistencies, []);
});

test('the generator does report a route without an entry, an entry without a route and a stray parameter', (t) => {
  const api = new KoaRouter({ prefix: '/api/v1' });
  api.get('/things', requires('alerts:read'), queryParameters(['colour']), () => undefined);
  api.get('/undocumented', requires('alerts:read'), () => undefined);
  const routes = servedRoutes({ public: [], api, alias: new KoaRouter() });
  const response = {
    kind: 'envelope',
    status: 200,
    description: 'things',
    data: z.object({ id: z.string() }),
    list: true,
  } as const;
  const built = openApiDocument({
    routes,
    version: '0',
    embeddedIdp: false,
    operations: [
      {
        method: 'get',
        path: '/things',
        tag: 'x',
        summary: 'things',
        query: { colour: z.string(), size: z.string() },
        response,
      },
      { method: 'post', path: '/things', tag: 'x', summary: 'make a thing', response },
    ],
  });
  t.deepEqual(
    built.undocumented.map((route) => `${route.method} ${route.path}`),
    ['get /api/v1/undocumented'],
  );
  t.deepEqual(
    built.unmatched.map((doc) => `${doc.method} ${doc.path}`),
    ['post /things'],
  );
  t.deepEqual(built.inconsistencies, [
    'get /api/v1/things: documents query parameters the route does not accept: size',
  ]);
  const things = (built.document.paths as any)['/api/v1/things'].get;
  t.is(things['x-required-permission'], 'alerts:read');
  t.deepEqual(
    things.parameters.filter((p: any) => !p.$ref).map((p: any) => p.name),
    ['colour'],
  );
  t.deepEqual(
    things.parameters.filter((p: any) => p.$ref).map((p: any) => p.$ref),
    ['#/components/parameters/MinReadPosition', '#/components/parameters/MinPosition'],
    'every authenticated GET takes a read position',
  );
});

test('the built-in identity provider answers as documented', async (t) => {
  const ajv = new Ajv2020({ strict: true, validateFormats: false });
  const client = platform.devClient!;
  const token = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: 'http://localhost:3000',
    }).toString(),
  });
  t.is(token.status, 200);
  t.true(
    ajv.validate(
      document.paths['/oauth/token'].post.responses['200'].content['application/json'].schema,
      await token.json(),
    ),
    ajv.errorsText(),
  );
  const refused = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: 'wrong',
      audience: 'http://localhost:3000',
    }),
  });
  t.is(refused.status, 401);
  t.true(
    ajv.validate(
      document.paths['/oauth/token'].post.responses['401'].content['application/json'].schema,
      await refused.json(),
    ),
    ajv.errorsText(),
  );
  const keys = await fetch(`${platform.url}/.well-known/jwks.json`);
  t.true(
    ajv.validate(
      document.paths['/.well-known/jwks.json'].get.responses['200'].content['application/json'].schema,
      await keys.json(),
    ),
    ajv.errorsText(),
  );
});

test('the document states the rules the routes check: escalation targets and stages, permission names, PATCH with a field', (t) => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const body = (path: string, method: string) =>
    document.paths[path][method].requestBody.content['application/json'].schema;
  const policy = ajv.compile(body('/api/v1/escalation-policies', 'post'));
  const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const stage = (order: number, delay: number, targets: unknown[]) => ({
    stage_order: order,
    delay_minutes: delay,
    targets,
  });
  const accepts = (stages: unknown[]) => policy({ name: 'ops', stages });
  t.true(
    accepts([stage(1, 0, [{ type: 'channel', id }]), stage(2, 5, [{ type: 'user', id, channels: ['email'] }])]),
    ajv.errorsText(policy.errors),
  );
  t.false(accepts([stage(1, 0, [{ type: 'user', id }])]), 'a user target needs channels');
  t.false(
    accepts([stage(1, 0, [{ type: 'schedule', id, channels: [] }])]),
    'a schedule target needs at least one channel',
  );
  t.false(accepts([stage(1, 0, [{ type: 'channel', id, channels: ['sms'] }])]), 'a channel target takes none');
  t.false(accepts([stage(1, 5, [{ type: 'channel', id }])]), 'the first stage fires at once');
  t.false(
    accepts([stage(1, 0, [{ type: 'channel', id }]), stage(2, 0, [{ type: 'channel', id }])]),
    'a later stage waits',
  );

  const overrides = ajv.compile(body('/api/v1/users/{id}/permission-overrides', 'put'));
  t.true(
    overrides({ permissions: { 'audit:read': 'allow', 'alerts:write': 'deny' } }),
    ajv.errorsText(overrides.errors),
  );
  t.false(overrides({ permissions: { 'audit:reed': 'allow' } }), 'an unknown permission name');
  t.false(overrides({ permissions: { 'audit:read': 'maybe' } }), 'neither allow nor deny');
  t.is(
    body('/api/v1/roles', 'post').properties.permissions.propertyNames.enum.length,
    document.paths['/api/v1/roles'].get.responses['200'].content['application/json'].schema.properties.data.items
      .properties.permissions.propertyNames.enum.length,
  );

  t.false(ajv.validate(body('/api/v1/users/{id}', 'patch'), {}), 'a PATCH of a user names a field');
  t.true(ajv.validate(body('/api/v1/users/{id}', 'patch'), { name: 'x' }));
});

test("the document lists the answers the server gives: DELETE's 400 and 413, the trigger's 404, the token endpoint's 413, ETags only where sent", (t) => {
  const deletes = Object.entries(document.paths).flatMap(([path, methods]: [string, any]) =>
    methods.delete ? [[path, methods.delete]] : [],
  ) as [string, any][];
  t.true(deletes.length >= 15);
  for (const [path, operation] of deletes) {
    t.truthy(operation.responses['400']?.content['application/problem+json'], `DELETE ${path}: 400`);
    t.truthy(operation.responses['413']?.content['application/problem+json'], `DELETE ${path}: 413`);
  }
  t.truthy(document.paths['/api/v1/sync/trigger'].post.responses['404']);
  t.truthy(document.paths['/oauth/token'].post.responses['413'].content['application/problem+json']);
  t.is(document.paths['/openapi.json'].get.responses['200'].content['application/json'].schema.type, 'object');
  const etag = (path: string, method: string, status = '200') =>
    Boolean(document.paths[path][method].responses[status].headers.ETag);
  for (const [path, method, status] of [
    ['/api/v1/simulator/metrics', 'post'],
    ['/api/v1/simulator/cluster', 'post'],
    ['/api/v1/stream-tickets', 'post', '201'],
    ['/api/v1/sync/trigger', 'post', '202'],
    ['/api/v1/sync/jobs/{job_id}/pause', 'post'],
    ['/api/v1/sync/jobs/{job_id}/resume', 'post'],
    ['/api/v1/sync/history', 'delete'],
    ['/api/v1/groups/{id}/members/{user_id}', 'put'],
    ['/api/v1/groups/{id}/members/{user_id}', 'delete'],
    ['/api/v1/ask', 'post'],
  ] as const)
    t.false(etag(path, method, status), `${method} ${path}: no ETag`);
  t.true(
    etag('/api/v1/alert-rules/{id}', 'put') &&
      etag('/api/v1/users', 'post', '201') &&
      etag('/api/v1/incidents/{id}/acknowledge', 'post'),
  );
});

test('the document names its server, the permission as_of needs, and the dashboard routes', (t) => {
  t.deepEqual(
    document.servers.map((server: any) => server.url),
    ['http://localhost:3000', '/'],
  );
  const incident = document.paths['/api/v1/incidents/{id}'].get;
  t.deepEqual(incident['x-conditional-permissions'], [{ permission: 'audit:read', when: 'with `as_of`' }]);
  t.regex(incident.responses['403'].description, /audit:read/);
  for (const path of ['/', '/dashboard/app.js', '/dashboard/app.css', '/dashboard/config.json'])
    t.deepEqual(document.paths[path]?.get?.security, [], path);
  t.truthy(document.paths['/'].get.responses['304']);
  t.true(
    document.tags.every((tag: any) => typeof tag.description === 'string'),
    'every tag is described',
  );
});
