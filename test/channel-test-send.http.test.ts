/**
 * The notification issue's "done when", as a new user does it over HTTP: a webhook channel pointing
 * at a local receiver (private networks allowed, so loopback is reachable), `POST …/test`, the
 * signed request arriving at a receiver that checks the signature with its own HMAC code, the
 * outcome in the answer and on the channel's event history; then the same channel pointed at the
 * cloud metadata address, refused with the reason.
 */
import test from 'ava';
import { startWebhookReceiver, type WebhookReceiver } from './support/notify-receivers/webhook-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let receiver: WebhookReceiver;
/** The signing secret of the channel under test; the receiver learns it once the channel exists. */
let signingSecret = '';

test.before(async () => {
  receiver = await startWebhookReceiver({
    secret: () => signingSecret,
    accept: { status: 202, body: 'queued for the on-call bot' },
  });
  app = await startTestApp({ env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

interface HistoryEntry {
  type: string;
  data: Record<string, unknown>;
}

test('a test send reaches a verifying receiver signed, and its outcome is in the answer and the channel history; the metadata address is refused with the reason', async (t) => {
  // Given a new user with a webhook channel pointing at the local receiver
  const caller = app.newTenant();
  const created = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: {
      name: 'on-call bot',
      type: 'webhook',
      config: { url: `${receiver.url}/hooks/oncall`, method: 'POST', headers: { 'X-Team': 'dba' } },
    },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const channel = created.body.data as { id: string; signing_secret: string };
  t.regex(channel.signing_secret, /\S{16,}/);
  signingSecret = channel.signing_secret;

  // When they ask for a test send
  const tested = await app.request('POST', `/api/v1/notification-channels/${channel.id}/test`, { caller, body: {} });

  // Then the receiver took one signed request (its own check of X-Signature passed)
  t.deepEqual(receiver.refusals, [], 'the receiver refused nothing');
  t.is(receiver.accepted.length, 1);
  const [{ request, payload }] = receiver.accepted as [WebhookReceiver['accepted'][number]];
  t.is(request.path, '/hooks/oncall');
  t.is(request.headers['x-team'], 'dba');
  t.regex(String(request.headers['x-signature']), /^t=\d+,v1=[0-9a-f]{64}$/);
  t.truthy(request.headers['idempotency-key']);
  t.like(payload, { version: 1, event: 'incident.triggered' });
  t.regex(String((payload.incident as { rule_name: string }).rule_name), /test alert/i);

  // And the answer says what the receiver did
  t.is(tested.status, 200, JSON.stringify(tested.body));
  const answer = tested.body as {
    success: boolean;
    status_code: number;
    latency_ms: number;
    response_excerpt: string;
    error: unknown;
  };
  t.like(answer, { success: true, status_code: 202, response_excerpt: 'queued for the on-call bot', error: null });
  t.true(typeof answer.latency_ms === 'number' && answer.latency_ms >= 0, String(answer.latency_ms));

  // And the channel's history, read through the API, records the test send without secrets
  const history = await app.request('GET', `/api/v1/notification-channels/${channel.id}/events`, { caller });
  t.is(history.status, 200, JSON.stringify(history.body));
  const events = history.body.data as HistoryEntry[];
  t.deepEqual(
    events.map((e) => e.type),
    ['ChannelCreated', 'ChannelSigningSecretSet', 'ChannelTestSent'],
  );
  t.like(events[2]!.data, {
    channelId: channel.id,
    ok: true,
    statusCode: 202,
    responseExcerpt: 'queued for the on-call bot',
    error: null,
  });
  t.false(JSON.stringify(events).includes(signingSecret), 'the signing secret is not in the history');

  // When the same channel is pointed at the cloud metadata address and tested again
  const moved = await app.request('PUT', `/api/v1/notification-channels/${channel.id}`, {
    caller,
    body: {
      name: 'on-call bot',
      type: 'webhook',
      config: { url: 'http://169.254.169.254/', method: 'POST', headers: {} },
    },
  });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  const refused = await app.request('POST', `/api/v1/notification-channels/${channel.id}/test`, { caller, body: {} });

  // Then nothing is sent, and the answer gives the reason
  t.is(refused.status, 200, JSON.stringify(refused.body));
  t.like(refused.body, { success: false, status_code: null, error: { kind: 'refused_address' } });
  t.is(
    refused.body.error.message,
    'http://169.254.169.254: 169.254.169.254 is a cloud metadata endpoint',
    'the reason, as the README shows it',
  );
  t.is(receiver.requests.length, 1, 'no further request left the platform');
  // And the refusal is on the channel's history too
  const after = (await app.request('GET', `/api/v1/notification-channels/${channel.id}/events`, { caller })).body
    .data as HistoryEntry[];
  t.deepEqual(after.filter((e) => e.type === 'ChannelTestSent').length, 2);
  t.is(after.at(-1)!.type, 'ChannelTestSent');
  t.like(after.at(-1)!.data, { ok: false, statusCode: null, error: { kind: 'refused_address' } });
});

test('the channel history masks config secrets, needs audit:read, and is 404 for another tenant', async (t) => {
  const caller = app.newTenant();
  const created = (
    await app.request('POST', '/notification-channels', {
      caller,
      body: {
        name: 'hook',
        type: 'webhook',
        config: {
          url: `${receiver.url}/masked`,
          method: 'PUT',
          headers: { Authorization: 'Bearer s3cr3t-value-1234' },
        },
      },
    })
  ).body.data as { id: string; signing_secret: string };
  const history = await app.request('GET', `/notification-channels/${created.id}/events`, { caller });
  t.is(history.status, 200);
  const [createdEvent, secretEvent] = history.body.data as HistoryEntry[];
  t.deepEqual((createdEvent!.data.config as { headers: Record<string, string> }).headers, {
    Authorization: '****1234',
  });
  t.deepEqual(secretEvent!.data, { channelId: created.id });
  t.false(JSON.stringify(history.body).includes('s3cr3t'));
  t.false(JSON.stringify(history.body).includes(created.signing_secret));

  // A reader of channels whose audit:read is denied may read the channel but not its history.
  const reader = (
    await app.request('POST', '/users', {
      caller,
      body: { email: 'rita@example.com', name: 'Rita Reader', role_id: 'viewer' },
    })
  ).body.data.id as string;
  await app.request('PUT', `/api/v1/users/${reader}/permission-overrides`, {
    caller,
    body: { permissions: { 'audit:read': 'deny' } },
  });
  const asReader = { tenantId: caller.tenantId, envId: caller.envId, userId: reader };
  t.is((await app.request('GET', `/notification-channels/${created.id}`, { caller: asReader })).status, 200);
  t.is((await app.request('GET', `/notification-channels/${created.id}/events`, { caller: asReader })).status, 403);
  t.is(
    (await app.request('GET', `/notification-channels/${created.id}/events`, { caller: app.newTenant() })).status,
    404,
  );
  t.is((await app.request('GET', '/notification-channels/not-a-uuid/events', { caller })).status, 404);
});
