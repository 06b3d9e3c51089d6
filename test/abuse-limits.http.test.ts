/**
 * Issue 25 items 7 and 11 over HTTP: stream tickets capped per caller, token requests limited per
 * client id and per source address, incident streams capped per tenant. Each answer beyond a
 * limit is a 429 problem with Retry-After.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { addressLimitKey, sourceAddress } from '../src/http/source-address.js';
import { startPlatform } from '../src/platform.js';
import { connectSse } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const BASE = 'http://localhost:4321';

let app: TestApp;

test.before(async () => {
  app = await startTestApp({ env: { STREAM_TICKETS_PER_PRINCIPAL: '3', INCIDENT_STREAMS_PER_TENANT: '3' } });
});
test.after.always(async () => {
  await app?.close();
});

test('a caller holds at most STREAM_TICKETS_PER_PRINCIPAL unused stream tickets; the next is a 429 with Retry-After; another caller is unaffected', async (t) => {
  const caller = app.newTenant();
  const ask = (who = caller) =>
    app.request('POST', '/api/v1/stream-tickets', { caller: who, body: { path: '/api/v1/incidents/stream' } });
  for (let i = 0; i < 3; i += 1) t.is((await ask()).status, 201);
  const refused = await ask();
  t.is(refused.status, 429);
  t.is(refused.headers.get('content-type'), 'application/problem+json');
  t.like(refused.body, { status: 429, title: 'Too Many Requests' });
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  t.is((await ask({ ...caller, userId: randomUUID() })).status, 201, 'another user of the same tenant');
  t.is((await ask(app.newTenant())).status, 201, 'another tenant');
});

test('200 wrong secrets from one address are met with 429s; the client from another address still gets its token', async (t) => {
  const platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: BASE,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-limits-')),
      LOG_LEVEL: 'silent',
    }),
  );
  t.teardown(() => platform.stop());
  const client = platform.devClient!;
  const tokenRequest = (secret: string, from: string) =>
    fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      // The test's peer is loopback, as a reverse proxy in front of the platform would be: it says who the client is.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: secret,
        audience: BASE,
      }),
    });
  const statuses: number[] = [];
  let limited: Response | undefined;
  for (let i = 0; i < 200; i += 1) {
    const response = await tokenRequest(`wrong-${i}`, '203.0.113.66');
    statuses.push(response.status);
    if (response.status === 429 && !limited) limited = response;
    else await response.body?.cancel();
  }
  t.log(
    `200 wrong secrets: ${statuses.filter((s) => s === 401).length} × 401, ${statuses.filter((s) => s === 429).length} × 429`,
  );
  t.true(statuses.filter((s) => s === 429).length >= 150, `statuses: ${[...new Set(statuses)].join(', ')}`);
  t.is(statuses.slice(0, 10).filter((s) => s === 401).length, 10, 'the first wrong secrets are plain 401s');
  t.is(limited!.headers.get('content-type'), 'application/problem+json');
  t.true(Number(limited!.headers.get('retry-after')) >= 1);
  t.like(await limited!.json(), { status: 429, title: 'Too Many Requests' });
  // The right secret from the attacker's address is refused too (guessing it would otherwise go on) …
  t.is((await tokenRequest(client.client_secret, '203.0.113.66')).status, 429);
  // … but the legitimate client elsewhere is not locked out.
  const legitimate = await tokenRequest(client.client_secret, '198.51.100.20');
  t.is(legitimate.status, 200);
  t.truthy(((await legitimate.json()) as { access_token: string }).access_token);
  // A forged X-Forwarded-For prefix changes nothing: only the proxy's (last) entry counts.
  t.is((await tokenRequest('wrong', '198.51.100.20, 203.0.113.66')).status, 429);
});

test('X-Forwarded-For is believed only from a private peer, and only its last entry', (t) => {
  t.is(sourceAddress('127.0.0.1', '1.2.3.4, 5.6.7.8'), '5.6.7.8');
  t.is(sourceAddress('::ffff:10.0.0.5', '5.6.7.8'), '5.6.7.8');
  t.is(sourceAddress('8.8.4.4', '5.6.7.8'), '8.8.4.4', 'a public peer is the client itself');
  t.is(sourceAddress('127.0.0.1', 'not-an-address'), '127.0.0.1');
  t.is(sourceAddress('127.0.0.1', undefined), '127.0.0.1');
});

test('per-address limits count an IPv6 client by its /64', (t) => {
  t.is(addressLimitKey('2001:db8:1:2:aaaa::1'), addressLimitKey('2001:db8:1:2:bbbb::2'));
  t.not(addressLimitKey('2001:db8:1:2::1'), addressLimitKey('2001:db8:1:3::1'));
  t.is(addressLimitKey('::ffff:203.0.113.7'), '203.0.113.7');
});

test('a tenant holds at most INCIDENT_STREAMS_PER_TENANT incident streams; the next is a 429 with Retry-After; other tenants are unaffected; a closed stream frees its place', async (t) => {
  const caller = app.newTenant();
  const open = (who = caller) => {
    const stream = connectSse(`${app.url}/api/v1/incidents/stream`, { authorization: `Bearer ${app.token(who)}` });
    t.teardown(() => stream.close());
    return stream;
  };
  const answered = async (stream: ReturnType<typeof open>) => {
    await waitFor(() => stream.status() !== 0, { message: 'the stream answer' });
    return stream.status();
  };
  // Three people of the tenant, each under INCIDENT_STREAMS_PER_USER: the tenant's cap refuses a fourth.
  const colleague = () => ({ ...caller, userId: randomUUID() });
  const streams = [open(), open(colleague()), open(colleague())];
  for (const stream of streams) t.is(await answered(stream), 200);
  const refused = await app.request('GET', '/api/v1/incidents/stream', { caller: colleague() });
  t.is(refused.status, 429);
  t.is(refused.headers.get('content-type'), 'application/problem+json');
  t.true(Number(refused.headers.get('retry-after')) >= 1);
  t.like(refused.body, { cap: 'per_tenant', limit: 3 });
  t.regex(refused.body.detail, /INCIDENT_STREAMS_PER_TENANT/);
  t.is(await answered(open(app.newTenant())), 200, 'another tenant');
  await streams[0]!.close();
  await waitFor(async () => (await answered(open())) === 200, { message: 'a place freed by the closed stream' });
  t.pass();
});
