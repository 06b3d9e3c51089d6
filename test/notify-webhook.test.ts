import test from 'ava';
import { request } from 'node:http';
import { createGuardedClient } from '../src/gateways/http/guarded-client.js';
import type { WebhookTarget } from '../src/gateways/notify/port.js';
import { webhookAdapter } from '../src/gateways/notify/webhook-adapter.js';
import {
  generateSigningSecret,
  signWebhookBody,
  verifyWebhookSignature,
} from '../src/gateways/notify/webhook-signature.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';
import type { RecordedRequest } from './support/notify-receivers/http-receiver.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/notify-receivers/webhook-receiver.js';

const SECRET = 'whsec_test-secret-0123456789';

async function setUp(t: { teardown: (fn: () => unknown) => void }) {
  const time = virtualTime();
  const receiver = await startWebhookReceiver({ secret: SECRET, now: time.now });
  const client = createGuardedClient({ allowPrivateNetworks: true, ...time });
  t.teardown(() => (client.close(), receiver.stop()));
  return { time, receiver, adapter: webhookAdapter(client, { now: time.now }) };
}

const channel = (receiver: WebhookReceiver, method: 'POST' | 'PUT' = 'POST'): WebhookTarget => ({
  medium: 'webhook',
  channelId: 'w0000000-0000-4000-8000-000000000001',
  config: {
    url: `${receiver.url}/hooks/alerts`,
    method,
    headers: { Authorization: 'Token custom-auth-1', 'X-Team': 'dba' },
  },
  signingSecret: SECRET,
});

/** Sends a recorded request again, byte for byte: what an attacker who captured it would do. */
function replay(receiver: WebhookReceiver, recorded: RecordedRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...recorded.headers };
    delete headers.connection;
    const sent = request(
      { host: '127.0.0.1', port: receiver.port, path: recorded.path, method: recorded.method, headers },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on('error', reject);
    sent.end(recorded.body);
  });
}

test('a signed, versioned payload with the configured headers is accepted by a verifying receiver', async (t) => {
  const { receiver, adapter } = await setUp(t);
  const outcome = await adapter.deliver(channel(receiver), alertMessage(), 'incident-1:stage-2:webhook');
  t.like(outcome, {
    ok: true,
    medium: 'webhook',
    status_code: 204,
    target: 'channel:w0000000-0000-4000-8000-000000000001',
    attempts: 1,
  });
  t.deepEqual(receiver.refusals, []);
  const [{ request: received, payload }] = receiver.accepted as [WebhookReceiver['accepted'][number]];
  t.is(received.method, 'POST');
  t.is(received.path, '/hooks/alerts');
  t.is(received.headers.authorization, 'Token custom-auth-1');
  t.is(received.headers['x-team'], 'dba');
  t.is(received.headers['x-webhook-version'], '1');
  t.is(received.headers['content-type'], 'application/json');
  t.is(received.headers['idempotency-key'], 'incident-1:stage-2:webhook');
  t.deepEqual(payload, {
    version: 1,
    event: 'incident.triggered',
    delivery_id: 'incident-1:stage-2:webhook',
    incident: {
      id: alertMessage().incidentId,
      status: 'triggered',
      severity: 'critical',
      source: 'rule',
      title: 'Disk usage high',
      detail: null,
      rule_name: 'Disk usage high',
      metric: 'disk_used_percent',
      current_value: 93.5,
      threshold: 90,
      condition: 'gt',
      cluster: 'prod-analytics',
      url: alertMessage().incidentUrl,
      occurred_at: '2026-03-01T11:59:30.000Z',
    },
  });
});

test('PUT is used when configured', async (t) => {
  const { receiver, adapter } = await setUp(t);
  await adapter.deliver(channel(receiver, 'PUT'), alertMessage({ status: 'resolved' }), 'k');
  t.is(receiver.accepted[0]!.request.method, 'PUT');
  t.is(receiver.accepted[0]!.payload.event, 'incident.resolved');
});

test('a captured delivery replayed verbatim is refused by the receiver', async (t) => {
  const { receiver, adapter } = await setUp(t);
  await adapter.deliver(channel(receiver), alertMessage(), 'k');
  t.is(await replay(receiver, receiver.accepted[0]!.request), 409);
  t.deepEqual(receiver.refusals, ['replayed']);
});

test('a signature made outside the tolerance is refused as stale; a tampered body as a bad signature', async (t) => {
  const { receiver, time } = await setUp(t);
  const body = '{"version":1}';
  const base = {
    method: 'POST',
    path: '/hooks/alerts',
    headers: { 'content-type': 'application/json', host: `127.0.0.1:${receiver.port}` },
  };
  const old = signWebhookBody(SECRET, time.now() / 1000 - 301, body);
  t.is(await replay(receiver, { ...base, headers: { ...base.headers, 'x-signature': old }, body }), 401);
  const fresh = signWebhookBody(SECRET, time.now() / 1000, body);
  t.is(
    await replay(receiver, { ...base, headers: { ...base.headers, 'x-signature': fresh }, body: '{"version":2}' }),
    401,
  );
  t.deepEqual(receiver.refusals, ['stale', 'bad_signature']);
});

test('a retry carries a fresh signature and the same idempotency key', async (t) => {
  const { receiver, adapter, time } = await setUp(t);
  receiver.failNext({ status: 503, headers: { 'retry-after': '2' } }, { status: 429, headers: { 'retry-after': '3' } });
  const outcome = await adapter.deliver(channel(receiver), alertMessage(), 'k');
  t.like(outcome, { ok: true, attempts: 3 });
  t.deepEqual(time.sleeps, [2000, 3000]);
  const timestamps = receiver.requests.map((r) => Number(/^t=(\d+),/.exec(String(r.headers['x-signature']))![1]));
  const first = time.now() / 1000 - 5;
  t.deepEqual(timestamps, [first, first + 2, first + 5], 'each attempt signed at its own time');
  t.deepEqual(
    receiver.requests.map((r) => r.headers['idempotency-key']),
    ['k', 'k', 'k'],
  );
});

test('verifyWebhookSignature: valid, stale, mismatched, malformed, and during a secret rotation', (t) => {
  const body = '{"a":1}';
  const header = signWebhookBody(SECRET, 1_772_366_400, body);
  t.regex(header, /^t=1772366400,v1=[0-9a-f]{64}$/);
  t.deepEqual(verifyWebhookSignature(SECRET, header, body, 1_772_366_400 + 299, 300), {
    valid: true,
    timestamp: 1_772_366_400,
  });
  t.deepEqual(verifyWebhookSignature(SECRET, header, body, 1_772_366_400 - 299, 300), {
    valid: true,
    timestamp: 1_772_366_400,
  });
  t.deepEqual(verifyWebhookSignature(SECRET, header, body, 1_772_366_400 + 301, 300), {
    valid: false,
    reason: 'stale',
  });
  t.deepEqual(verifyWebhookSignature(SECRET, header, `${body} `, 1_772_366_400, 300), {
    valid: false,
    reason: 'mismatch',
  });
  t.deepEqual(verifyWebhookSignature('whsec_other', header, body, 1_772_366_400, 300), {
    valid: false,
    reason: 'mismatch',
  });
  for (const bad of [undefined, '', 'v1=abc', 't=1,v1=zz', `t=x,${header.split(',')[1]}`, `${header},t=2`]) {
    t.deepEqual(verifyWebhookSignature(SECRET, bad, body, 1, 1e12), { valid: false, reason: 'malformed' }, String(bad));
  }
  const rotated = `${header},v1=${signWebhookBody('whsec_new', 1_772_366_400, body).split('v1=')[1]}`;
  t.true(verifyWebhookSignature('whsec_new', rotated, body, 1_772_366_400, 300).valid);
  t.true(verifyWebhookSignature(SECRET, rotated, body, 1_772_366_400, 300).valid);
});

test('signing secrets are long, random and recognisable', (t) => {
  const secrets = new Set(Array.from({ length: 50 }, generateSigningSecret));
  t.is(secrets.size, 50);
  for (const secret of secrets) t.regex(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
});
