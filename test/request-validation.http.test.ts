/**
 * Requests the API cannot understand are refused, the same way on every route: an unknown query
 * parameter on any GET route (walked from the running platform's routers, so a route added later
 * is covered), malformed JSON, a body that is not an object, a body that is not JSON.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startPlatform } from '../src/platform.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
let owner: Caller;
test.before(async () => {
  app = await startTestApp();
  owner = app.newTenant();
});
test.after.always(async () => app?.close());

/** Every GET path the API registers, path parameters filled with fresh ids. */
function getRoutes(): string[] {
  const paths = new Set<string>();
  for (const router of app.platform.routers) {
    for (const layer of router.stack) {
      if (!layer.methods.includes('GET') || typeof layer.path !== 'string') continue;
      paths.add(
        layer.path
          .split('/')
          .map((segment) => (segment.startsWith(':') ? randomUUID() : segment))
          .join('/'),
      );
    }
  }
  return [...paths];
}

test('an unknown query parameter is a 400 naming it on every GET route', async (t) => {
  const paths = getRoutes();
  t.true(paths.length >= 25, `walked ${paths.length} GET routes`);
  for (const path of paths) {
    const response = await app.request('GET', `${path}?no_such_parameter=1`, { caller: owner });
    t.is(response.status, 400, `GET ${path} answered ${response.status}`);
    t.is(response.headers.get('content-type'), 'application/problem+json', path);
    t.is(response.body.errors?.[0]?.path, '/no_such_parameter', path);
    t.regex(response.body.errors?.[0]?.message ?? '', /^unknown query parameter; known: /, path);
  }
});

test('a misspelt filter is refused with the known parameters, a known one lists', async (t) => {
  const misspelt = await app.request('GET', '/api/v1/incidents?state=triggered', { caller: owner });
  t.is(misspelt.status, 400);
  t.deepEqual(misspelt.body.errors, [
    {
      path: '/state',
      message: 'unknown query parameter; known: status, severity, source, rule_id, from, to, limit, cursor',
    },
  ]);
  t.is((await app.request('GET', '/api/v1/incidents?status=triggered&limit=5', { caller: owner })).status, 200);
  t.is((await app.request('GET', '/users?is_active=true&cursor=', { caller: owner })).status, 200);
  const asOf = await app.request('GET', `/api/v1/incidents/${randomUUID()}?as_of=2026-01-01T00:00:00Z`, {
    caller: owner,
  });
  t.is(asOf.status, 404, 'as_of is accepted on an incident (which does not exist)');
  const warehouse = await app.request('GET', '/warehouse/cluster?cluster=x', { caller: owner });
  t.deepEqual(warehouse.body.errors, [{ path: '/cluster', message: 'unknown query parameter; known: none' }]);
});

/** Bytes rather than a string, so fetch adds no Content-Type of its own when none is given. */
async function send(path: string, body: string, contentType: string | undefined = 'application/json', method = 'POST') {
  const headers: Record<string, string> = {
    authorization: `Bearer ${app.token(owner)}`,
    ...(contentType ? { 'content-type': contentType } : {}),
  };
  const response = await fetch(`${app.url}${path}`, { method, headers, body: new TextEncoder().encode(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const sendUntyped = async (path: string, method: string) => {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${app.token(owner)}` },
    body: new TextEncoder().encode('name=x'),
  });
  return { status: response.status, headers: response.headers };
};

test('malformed JSON is a 400 with the position of the error, without echoing the body', async (t) => {
  const cases: [string, number][] = [
    ['{"name": "x",}', 13],
    ['{"name": }', 9],
    ['{"name": "x"', 12],
    ['{"name": "secret-value" "type": 1}', 24],
  ];
  for (const [text, position] of cases) {
    const response = await send('/api/v1/roles', text);
    t.is(response.status, 400, text);
    t.deepEqual(response.body.errors, [{ path: '', message: `invalid JSON at position ${position}` }], text);
    t.false(JSON.stringify(response.body).includes('secret-value'));
  }
});

test('null, arrays and scalars are 400 "body must be a JSON object"', async (t) => {
  for (const text of ['null', '[]', '[{"name":"x"}]', '42', '"x"', 'true']) {
    const response = await send('/api/v1/roles', text);
    t.is(response.status, 400, text);
    t.deepEqual(response.body.errors, [{ path: '', message: 'body must be a JSON object' }], text);
  }
  const put = await send(`/api/v1/roles/${randomUUID()}`, 'null', 'application/json', 'PUT');
  t.is(put.status, 400);
});

test('a body that is not JSON is 415 on POST, PUT and PATCH; a POST without a body is not', async (t) => {
  for (const [method, path] of [
    ['POST', '/api/v1/roles'],
    ['PUT', `/api/v1/roles/${randomUUID()}`],
    ['PATCH', `/users/${randomUUID()}`],
  ] as const) {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const response = await (type === undefined ? sendUntyped(path, method) : send(path, 'name=x', type, method));
      t.is(response.status, 415, `${method} ${path} ${type}`);
      t.is(response.headers.get('content-type'), 'application/problem+json');
    }
  }
  const role = await send('/api/v1/roles', '{"name":"json role","permissions":{}}', 'application/json; charset=utf-8');
  t.is(role.status, 201);
  const noBody = await fetch(`${app.url}/api/v1/incidents/${randomUUID()}/acknowledge`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token(owner)}` },
  });
  t.is(noBody.status, 404, 'an empty POST reaches the route');
});

test('the token endpoint of the built-in identity provider is exempt from the 415 for form bodies', async (t) => {
  const platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'http://localhost:3000',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-form-')),
      LOG_LEVEL: 'silent',
    }),
  );
  try {
    const client = platform.devClient!;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: 'http://localhost:3000',
    });
    const response = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    t.not(response.status, 415);
    const json = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(form)),
    });
    t.is(json.status, 200);
    // Any other body is the token endpoint's own RFC 6749 error, not the API's 415.
    const text = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    t.is(text.status, 400);
    t.is(((await text.json()) as { error: string }).error, 'invalid_request');
  } finally {
    await platform.stop();
  }
});
