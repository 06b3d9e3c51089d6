import test, { type ExecutionContext } from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { loadConfig } from '../src/config.js';
import type { ClientRegistration } from '../src/auth/embedded-idp.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';

let platform: RunningPlatform;
const BASE = 'http://localhost:4321';
test.before(async () => {
  platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: BASE,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-idp-')),
      LOG_LEVEL: 'silent',
    }),
  );
});
test.after.always(async () => platform?.stop());

const valid = (c: ClientRegistration) =>
  ({
    grant_type: 'client_credentials',
    client_id: c.client_id,
    client_secret: c.client_secret,
    audience: BASE,
  }) as Record<string, unknown>;
const json = (fields: Record<string, unknown>) => ({
  body: JSON.stringify(fields),
  headers: { 'content-type': 'application/json' },
});
const tokenRequest = (body: unknown) =>
  fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('the dev client gets a 24-hour RS256 token that the platform accepts', async (t) => {
  const client = platform.devClient!;
  const response = await tokenRequest({
    grant_type: 'client_credentials',
    client_id: client.client_id,
    client_secret: client.client_secret,
    audience: BASE,
  });
  t.is(response.status, 200);
  const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
  t.is(body.token_type, 'Bearer');
  t.is(body.expires_in, 86400);
  const decoded = jwt.decode(body.access_token, { complete: true })!;
  t.is(decoded.header.alg, 'RS256');
  t.truthy(decoded.header.kid);
  t.like(decoded.payload as object, {
    tenant_id: client.tenant_id,
    env_id: client.env_id,
    user_id: client.user_id,
    roles: ['owner'],
    aud: BASE,
    iss: BASE,
  });
  const jwks = (await (await fetch(`${platform.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  t.deepEqual(
    jwks.keys.map((k) => k.kid),
    [decoded.header.kid],
  );
  const list = await fetch(`${platform.url}/notification-channels`, {
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  t.is(list.status, 200);
});

const oauthRequest = (body: string, headers: Record<string, string>) =>
  fetch(`${platform.url}/oauth/token`, { method: 'POST', headers, body });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function expectToken(t: ExecutionContext, response: Response) {
  t.is(response.status, 200);
  t.is(response.headers.get('cache-control'), 'no-store');
  const body = (await response.json()) as { access_token: string; token_type: string };
  t.is(body.token_type, 'Bearer');
  const list = await fetch(`${platform.url}/notification-channels`, {
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  t.is(list.status, 200);
}

test('the token endpoint takes a form-encoded body (RFC 6749 4.4.2)', async (t) => {
  const client = platform.devClient!;
  await expectToken(
    t,
    await oauthRequest(
      form({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        audience: BASE,
      }),
      { 'content-type': 'application/x-www-form-urlencoded' },
    ),
  );
});

test('the token endpoint takes client credentials in HTTP Basic, form or JSON body', async (t) => {
  const client = platform.devClient!;
  const authorization = basic(client.client_id, client.client_secret);
  await expectToken(
    t,
    await oauthRequest(form({ grant_type: 'client_credentials', audience: BASE }), {
      'content-type': 'application/x-www-form-urlencoded',
      authorization,
    }),
  );
  await expectToken(
    t,
    await oauthRequest(JSON.stringify({ grant_type: 'client_credentials', audience: BASE }), {
      'content-type': 'application/json',
      authorization,
    }),
  );
});

/** RFC 6749 5.2: which error, with which status, for which request. */
const refused: [
  string,
  (c: ClientRegistration) => { body: string; headers: Record<string, string> },
  number,
  string,
][] = [
  ['a wrong secret', (c) => json({ ...valid(c), client_secret: 'wrong' }), 401, 'invalid_client'],
  ['an unknown client', (c) => json({ ...valid(c), client_id: 'nobody' }), 401, 'invalid_client'],
  [
    'a wrong secret in HTTP Basic',
    (c) => ({
      body: form({ grant_type: 'client_credentials', audience: BASE }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(c.client_id, 'wrong') },
    }),
    401,
    'invalid_client',
  ],
  [
    'no client credentials at all',
    () => json({ grant_type: 'client_credentials', audience: BASE }),
    401,
    'invalid_client',
  ],
  [
    'malformed HTTP Basic credentials',
    () => ({
      body: form({ grant_type: 'client_credentials', audience: BASE }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`,
      },
    }),
    401,
    'invalid_client',
  ],
  [
    'a wrong secret in a form body',
    (c) => ({
      body: form({ grant_type: 'client_credentials', client_id: c.client_id, client_secret: 'wrong', audience: BASE }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    401,
    'invalid_client',
  ],
  ['another grant type', (c) => json({ ...valid(c), grant_type: 'password' }), 400, 'unsupported_grant_type'],
  [
    'an unknown grant type in a form body',
    (c) => ({
      body: form({ ...valid(c), grant_type: 'urn:example:magic' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    400,
    'unsupported_grant_type',
  ],
  ['a missing grant type', (c) => json({ ...valid(c), grant_type: undefined }), 400, 'invalid_request'],
  ['another audience', (c) => json({ ...valid(c), audience: 'https://elsewhere.example' }), 400, 'invalid_request'],
  [
    'credentials in both HTTP Basic and the body',
    (c) => ({
      ...json(valid(c)),
      headers: { 'content-type': 'application/json', authorization: basic(c.client_id, c.client_secret) },
    }),
    400,
    'invalid_request',
  ],
  [
    'a body that is not JSON',
    () => ({ body: '{"grant_type":', headers: { 'content-type': 'application/json' } }),
    400,
    'invalid_request',
  ],
  [
    'a text/plain body',
    (c) => ({ body: JSON.stringify(valid(c)), headers: { 'content-type': 'text/plain' } }),
    400,
    'invalid_request',
  ],
];
for (const [title, request, status, error] of refused) {
  test(`the token endpoint answers ${title} with ${status} ${error} in application/json`, async (t) => {
    const { body, headers } = request(platform.devClient!);
    const response = await oauthRequest(body, headers);
    t.is(response.status, status);
    t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
    t.is(response.headers.get('cache-control'), 'no-store');
    const answer = (await response.json()) as Record<string, unknown>;
    t.is(answer.error, error);
    t.is(typeof answer.error_description, 'string');
    // RFC 6749 5.2: the challenge of the scheme the client used, and only then: a client that sent
    // its credentials in the body (the dashboard's JSON fetch) gets none, or a browser would raise its
    // own login dialog over the page.
    if (status === 401 && headers.authorization) t.regex(response.headers.get('www-authenticate') ?? '', /^Basic /);
    else t.is(response.headers.get('www-authenticate'), null);
  });
}

test('health reports each store and metrics are Prometheus text', async (t) => {
  const health = await fetch(`${platform.url}/health`);
  t.is(health.status, 200);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string }> };
  t.is(body.status, 'ok');
  t.is(body.checks.event_store!.status, 'up');
  t.is(body.checks.read_store!.status, 'up');
  await fetch(`${platform.url}/notification-channels`);
  const metrics = await (await fetch(`${platform.url}/metrics`)).text();
  t.regex(metrics, /# TYPE http_request_duration_seconds histogram/);
  t.regex(metrics, /http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} 1/);
  t.regex(metrics, /eventstore_append_duration_seconds/);
  t.regex(metrics, /projection_lag_events\{projection="channels"\} 0/);
});

test.serial('health is 503 naming the store that is down', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-down-'));
  const other = await startPlatform(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
  );
  await other.readStore.close();
  const health = await fetch(`${other.url}/health`);
  t.is(health.status, 503);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string }> };
  t.is(body.checks.read_store!.status, 'down');
  t.is(body.checks.event_store!.status, 'up');
  await other.stop().catch(() => {});
});
