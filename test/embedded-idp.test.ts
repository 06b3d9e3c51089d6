import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { loadConfig } from '../src/config.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';

let platform: RunningPlatform;
const BASE = 'http://localhost:4321';
test.before(async () => {
  platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', BASE_URL: BASE, DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-idp-')), LOG_LEVEL: 'silent' }));
});
test.after.always(async () => platform?.stop());

const tokenRequest = (body: unknown) =>
  fetch(`${platform.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('the dev client gets a 24-hour RS256 token that the platform accepts', async (t) => {
  const client = platform.devClient!;
  const response = await tokenRequest({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: BASE });
  t.is(response.status, 200);
  const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
  t.is(body.token_type, 'Bearer');
  t.is(body.expires_in, 86400);
  const decoded = jwt.decode(body.access_token, { complete: true })!;
  t.is(decoded.header.alg, 'RS256');
  t.truthy(decoded.header.kid);
  t.like(decoded.payload as object, { tenant_id: client.tenant_id, env_id: client.env_id, user_id: client.user_id, roles: ['owner'], aud: BASE, iss: BASE });
  const jwks = (await (await fetch(`${platform.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  t.deepEqual(jwks.keys.map((k) => k.kid), [decoded.header.kid]);
  const list = await fetch(`${platform.url}/notification-channels`, { headers: { authorization: `Bearer ${body.access_token}` } });
  t.is(list.status, 200);
});

const refused: [string, Record<string, unknown>, number][] = [
  ['a wrong secret', { client_secret: 'wrong' }, 401],
  ['an unknown client', { client_id: 'nobody' }, 401],
  ['another audience', { audience: 'https://elsewhere.example' }, 400],
  ['another grant type', { grant_type: 'password' }, 400],
];
for (const [title, change, status] of refused) {
  test(`the token endpoint refuses ${title}`, async (t) => {
    const client = platform.devClient!;
    const response = await tokenRequest({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: BASE, ...change });
    t.is(response.status, status);
    t.is(response.headers.get('content-type'), 'application/problem+json');
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
  const other = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  await other.readStore.close();
  const health = await fetch(`${other.url}/health`);
  t.is(health.status, 503);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string }> };
  t.is(body.checks.read_store!.status, 'down');
  t.is(body.checks.event_store!.status, 'up');
  await other.stop().catch(() => {});
});
