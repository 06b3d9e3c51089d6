import test from 'ava';
import type { LookupAddress } from 'node:dns';
import { createGuardedClient, type GuardedClientOptions } from '../src/gateways/http/guarded-client.js';
import { systemResolver, type HostResolver } from '../src/gateways/http/guarded-lookup.js';
import { startHttpReceiver, type HttpReceiver, type ReplyHandler } from './support/notify-receivers/http-receiver.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';
import { waitFor } from './support/wait-for.js';

type TestContext = { teardown: (fn: () => unknown) => void };

async function receiver(t: TestContext, handler?: ReplyHandler): Promise<HttpReceiver> {
  const started = await startHttpReceiver(handler);
  t.teardown(() => started.stop());
  return started;
}

function client(t: TestContext, options: Partial<GuardedClientOptions> & { allowPrivateNetworks: boolean }) {
  const time = virtualTime();
  const made = createGuardedClient({
    timeoutMs: 10_000,
    sleep: time.sleep,
    now: time.now,
    random: time.random,
    ...options,
  });
  t.teardown(() => made.close());
  return { client: made, time };
}

const post = (url: string, extra: { idempotencyKey?: string; headers?: Record<string, string> } = {}) => ({
  method: 'POST' as const,
  url,
  body: '{"hello":"world"}',
  idempotencyKey: extra.idempotencyKey ?? 'delivery-1',
  headers: extra.headers,
});

/** Names the tests make point at chosen addresses; anything else goes to the system resolver. */
const names: Record<string, string[]> = {
  'metadata.test': ['169.254.169.254'],
  'rebind.test': ['::ffff:127.0.0.1'],
  'intranet.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'ula.test': ['fd12:3456::1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.test': ['2002:7f00:1::1'],
  'cgnat.test': ['100.64.1.1'],
  'loopback.test': ['127.0.0.1'],
};
const resolveHost: HostResolver = async (hostname) =>
  names[hostname]
    ? names[hostname]!.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }))
    : systemResolver(hostname);

const refusedForms = (port: number) => [
  `http://127.0.0.1:${port}/`,
  `http://127.1:${port}/`,
  `http://0x7f.1:${port}/`,
  `http://2130706433:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://127.0.0.1.:${port}/`,
  `http://[::1]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::ffff:7f00:1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  `http://[64:ff9b::127.0.0.1]:${port}/`,
  `http://[2002:7f00:1::]:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://0:${port}/`,
  `https://127.0.0.1:${port}/`,
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://100.100.100.200/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.0.1/',
  'http://100.64.0.1/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'http://255.255.255.255/',
  'http://224.0.0.1/',
  'http://198.18.0.1/',
  'http://[2001::1]/',
  `http://localhost:${port}/`,
  `http://LocalHost:${port}/`,
  'http://metadata.test/latest/meta-data/',
  `http://rebind.test:${port}/`,
  'http://intranet.test/',
  `http://mixed.test:${port}/`,
  'http://ula.test/',
  'http://nat64.test/',
  `http://sixtofour.test:${port}/`,
  'http://cgnat.test/',
  `http://loopback.test:${port}/`,
];

test('with the switch off, every literal and resolved form of a non-public address is refused before any request', async (t) => {
  const target = await receiver(t);
  const { client: guarded, time } = client(t, { allowPrivateNetworks: false, resolveHost, timeoutMs: 500 });
  const forms = refusedForms(target.port);
  t.true(forms.length >= 30);
  for (const url of forms) {
    const outcome = await guarded.send(post(url));
    t.like(outcome, { ok: false, attempts: 1, error: { kind: 'refused_address' } }, url);
    t.is(outcome.status_code, undefined, url);
  }
  t.deepEqual(time.sleeps, [], 'a refusal is never retried');
  t.is(target.requests.length, 0, 'nothing reached the loopback receiver');
});

test('with the switch on, loopback names and literals reach the receiver, and the resolved address is the one connected to', async (t) => {
  const target = await receiver(t);
  const calls: string[] = [];
  const counting: HostResolver = async (hostname) => (calls.push(hostname), resolveHost(hostname));
  const { client: guarded } = client(t, { allowPrivateNetworks: true, resolveHost: counting, keepAlive: false });
  for (const url of [
    `http://localhost:${target.port}/a`,
    `http://127.1:${target.port}/b`,
    `http://loopback.test:${target.port}/c`,
  ]) {
    t.like(await guarded.send(post(url)), { ok: true, status_code: 200, attempts: 1, response_excerpt: 'ok' }, url);
  }
  t.deepEqual(
    target.requests.map((r) => r.path),
    ['/a', '/b', '/c'],
  );
  t.deepEqual(
    calls,
    ['localhost', 'loopback.test'],
    'one resolution per connection, through our lookup; none for a literal',
  );
});

test('cloud metadata stays refused with the switch on', async (t) => {
  const { client: guarded } = client(t, { allowPrivateNetworks: true, resolveHost, timeoutMs: 500 });
  for (const url of [
    'http://169.254.169.254/',
    'http://metadata.test/',
    'http://nat64.test/',
    'http://[fd00:ec2::254]/',
  ]) {
    const outcome = await guarded.send(post(url));
    t.like(outcome, { ok: false, error: { kind: 'refused_address' } }, url);
    t.regex(outcome.error!.message, /cloud metadata/, url);
  }
});

test('5xx answers are retried with full-jitter backoff and the same idempotency key', async (t) => {
  const target = await receiver(t, (_request, index) =>
    index < 2 ? { status: 503, body: 'busy' } : { status: 201, body: 'created' },
  );
  const { client: guarded, time } = client(t, { allowPrivateNetworks: true });
  const outcome = await guarded.send(post(`${target.url}/hook`, { idempotencyKey: 'incident-1:stage-1:channel-9' }));
  t.like(outcome, { ok: true, status_code: 201, attempts: 3, response_excerpt: 'created' });
  t.deepEqual(time.sleeps, [250, 500], 'random 0.5 of the 500 ms and 1000 ms ceilings');
  t.is(outcome.latency_ms, 750, 'latency counts the waits (virtual clock)');
  t.deepEqual(
    target.requests.map((r) => r.headers['idempotency-key']),
    ['incident-1:stage-1:channel-9', 'incident-1:stage-1:channel-9', 'incident-1:stage-1:channel-9'],
  );
});

test('a 5xx on every attempt gives up after three and reports the last answer', async (t) => {
  const target = await receiver(t, () => ({ status: 500, body: 'broken' }));
  const { client: guarded } = client(t, { allowPrivateNetworks: true });
  const outcome = await guarded.send(post(target.url));
  t.like(outcome, {
    ok: false,
    status_code: 500,
    attempts: 3,
    response_excerpt: 'broken',
    error: { kind: 'http', message: `${target.url} answered 500` },
  });
  t.is(target.requests.length, 3);
});

const retryAfterCases: Array<[string, (now: number) => string, number]> = [
  ['delta seconds', () => '7', 7000],
  ['an HTTP date', (now) => new Date(now + 12_000).toUTCString(), 12_000],
  ['a date in the past', (now) => new Date(now - 60_000).toUTCString(), 0],
  ['more than the cap', () => '120', 30_000],
  ['something unreadable (backoff instead)', () => 'soon', 250],
];
for (const [title, value, expectedWait] of retryAfterCases) {
  test(`429 honours Retry-After given as ${title}`, async (t) => {
    const time = virtualTime();
    const target = await receiver(t, (_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': value(time.now()) } } : { status: 200, body: 'ok' },
    );
    const guarded = createGuardedClient({
      allowPrivateNetworks: true,
      sleep: time.sleep,
      now: time.now,
      random: time.random,
    });
    t.teardown(() => guarded.close());
    t.like(await guarded.send(post(target.url)), { ok: true, attempts: 2 });
    t.deepEqual(time.sleeps, [expectedWait]);
  });
}

test('a 400 is not retried', async (t) => {
  const target = await receiver(t, () => ({
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: '{"error":"invalid_payload"}',
  }));
  const { client: guarded, time } = client(t, { allowPrivateNetworks: true });
  const outcome = await guarded.send(post(target.url));
  t.like(outcome, {
    ok: false,
    status_code: 400,
    attempts: 1,
    response_excerpt: '{"error":"invalid_payload"}',
    error: { kind: 'http' },
  });
  t.deepEqual(time.sleeps, []);
  t.is(target.requests.length, 1);
});

for (const status of [301, 302, 303, 307, 308]) {
  test(`a ${status} redirect is the outcome, not followed`, async (t) => {
    const elsewhere = await receiver(t);
    const target = await receiver(t, () => ({ status, headers: { location: `${elsewhere.url}/moved` } }));
    const { client: guarded } = client(t, { allowPrivateNetworks: true });
    const outcome = await guarded.send(post(target.url));
    t.like(outcome, { ok: false, status_code: status, attempts: 1, error: { kind: 'http' } });
    t.regex(outcome.error!.message, /redirects are not followed/);
    t.is(elsewhere.requests.length, 0);
  });
}

test('a body is read up to 64 KiB and the connection is cut, even when it never ends', async (t) => {
  const target = await receiver(t, () => ({ endless: true }));
  const { client: guarded } = client(t, { allowPrivateNetworks: true, timeoutMs: 10_000 });
  const outcome = await guarded.send(post(target.url));
  t.like(outcome, { ok: true, status_code: 200, attempts: 1 });
  t.is(outcome.response_excerpt!.length, 64 * 1024);
  await waitFor(() => target.endlessBodiesCutOff === 1, { message: 'the receiver to see its stream cut off' });
});

test('a receiver that never answers times out on each attempt, within a bounded time', async (t) => {
  const target = await receiver(t, () => ({ hang: true }));
  const { client: guarded, time } = client(t, { allowPrivateNetworks: true, timeoutMs: 200 });
  const started = Date.now();
  const outcome = await guarded.send(post(target.url));
  const elapsed = Date.now() - started;
  t.like(outcome, {
    ok: false,
    attempts: 3,
    error: { kind: 'timeout', message: `${target.url}: no answer within 200 ms` },
  });
  t.is(time.sleeps.length, 2, 'timeouts are retried');
  t.true(
    target.requests.length <= 3,
    'one request per attempt at most (under load a request may not even arrive in time)',
  );
  t.true(elapsed >= 3 * 200 && elapsed < 5000, `took ${elapsed} ms`);
});

test('a refused connection is a network error, retried', async (t) => {
  const target = await receiver(t);
  await target.stop();
  const { client: guarded, time } = client(t, { allowPrivateNetworks: true });
  const outcome = await guarded.send(post(target.url));
  t.like(outcome, {
    ok: false,
    attempts: 3,
    error: { kind: 'network', message: `${target.url}: the connection failed (ECONNREFUSED)` },
  });
  t.is(time.sleeps.length, 2);
});

test('TLS to a plain HTTP port is a TLS error, not retried', async (t) => {
  const target = await receiver(t);
  const { client: guarded } = client(t, { allowPrivateNetworks: true });
  const outcome = await guarded.send(post(`https://127.0.0.1:${target.port}/`));
  t.like(outcome, { ok: false, attempts: 1, error: { kind: 'tls' } });
});

test('name resolution failures: a missing name is final, a resolver hiccup is retried', async (t) => {
  const failing =
    (code: string): HostResolver =>
    async () => {
      throw Object.assign(new Error(`getaddrinfo ${code} secret-host.example`), { code });
    };
  const missing = client(t, { allowPrivateNetworks: false, resolveHost: failing('ENOTFOUND') });
  t.like(await missing.client.send(post('https://hooks.example.com/x')), {
    ok: false,
    attempts: 1,
    error: { kind: 'dns', message: 'https://hooks.example.com: the host name could not be resolved (ENOTFOUND)' },
  });
  const flaky = client(t, { allowPrivateNetworks: false, resolveHost: failing('EAI_AGAIN') });
  t.like(await flaky.client.send(post('https://hooks.example.com/x')), {
    ok: false,
    attempts: 3,
    error: { kind: 'dns' },
  });
});

test('a secret in the path, query or user info never appears in an outcome message', async (t) => {
  const hanging = await receiver(t, (request) =>
    request.path.includes('hang') ? { hang: true } : { status: 500, body: 'nope' },
  );
  const closed = await receiver(t);
  await closed.stop();
  const secret = 'xoxb-SECRET-TOKEN-42';
  const urls = [
    `http://127.0.0.1:${hanging.port}/services/T0/B0/${secret}?token=${secret}`,
    `http://127.0.0.1:${hanging.port}/hang/${secret}`,
    `http://user:${secret}@127.0.0.1:${closed.port}/${secret}`,
    `https://127.0.0.1:${hanging.port}/${secret}`,
    `http://10.0.0.1/${secret}`,
    `http://metadata.test/${secret}`,
    `ftp://user:${secret}@files.example.com/${secret}`,
    `not a url ${secret}`,
  ];
  const guardedOn = client(t, { allowPrivateNetworks: true, resolveHost, timeoutMs: 200 }).client;
  const guardedOff = client(t, { allowPrivateNetworks: false, resolveHost, timeoutMs: 200 }).client;
  for (const url of urls) {
    for (const guarded of [guardedOn, guardedOff]) {
      const outcome = await guarded.send(post(url));
      t.false(outcome.ok, url);
      t.truthy(outcome.error?.message, url);
      t.false(JSON.stringify(outcome).includes(secret), `${url} → ${outcome.error?.message}`);
    }
  }
});

test('configured headers go out, but cannot replace the idempotency key or the framing', async (t) => {
  const target = await receiver(t);
  const { client: guarded } = client(t, { allowPrivateNetworks: true });
  let attempt = 0;
  await guarded.send({
    ...post(target.url, {
      headers: {
        Authorization: 'Bearer abc',
        'Idempotency-Key': 'forged',
        'Content-Length': '1',
        Host: 'evil.example',
      },
    }),
    attemptHeaders: () => ({ 'X-Attempt': String(++attempt) }),
  });
  const [request] = target.requests;
  t.is(request!.headers.authorization, 'Bearer abc');
  t.is(request!.headers['idempotency-key'], 'delivery-1');
  t.is(request!.headers['content-length'], String(Buffer.byteLength('{"hello":"world"}')));
  t.is(request!.headers.host, `127.0.0.1:${target.port}`);
  t.is(request!.headers['content-type'], 'application/json');
  t.is(request!.headers['x-attempt'], '1');
  t.is(request!.body, '{"hello":"world"}');
});
