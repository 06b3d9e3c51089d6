/**
 * Issue 25 item 5: open streams keep no rights they lost. After deactivation, after a deny
 * override, and at the token's expiry, an open /incidents/stream or /sync/stream gets a final
 * `event: error` naming why and ends; IAM changes take effect within about a second.
 */
import test from 'ava';
import { connectSse } from './support/sse-client.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

async function newViewer(owner: Caller, email: string): Promise<Caller> {
  const created = await app.request('POST', '/api/v1/users', {
    caller: owner,
    body: { email, name: 'Vic Viewer', role_id: 'viewer' },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return { tenantId: owner.tenantId, envId: owner.envId, userId: created.body.data.id as string };
}

function openStream(t: { teardown(fn: () => unknown): void }, path: string, token: string) {
  const stream = connectSse(`${app.url}${path}`, { authorization: `Bearer ${token}` });
  t.teardown(() => stream.close());
  return stream;
}

const errorEvent = (stream: ReturnType<typeof openStream>) => stream.events.find((e) => e.event === 'error');

test('deactivating a user ends their incident stream within a second, with event: error naming why, and nothing follows', async (t) => {
  const owner = app.newTenant();
  const viewer = await newViewer(owner, 'deactivated@example.com');
  const stream = openStream(t, '/api/v1/incidents/stream', app.token(viewer));
  await waitFor(() => stream.status() !== 0, { message: 'the stream answer' });
  t.is(stream.status(), 200);

  const deactivated = await app.request('PATCH', `/api/v1/users/${viewer.userId}`, {
    caller: owner,
    body: { is_active: false },
  });
  t.is(deactivated.status, 200);
  const changedAt = Date.now();
  await waitFor(() => errorEvent(stream) !== undefined, { timeoutMs: 3000, message: 'event: error' });
  const elapsed = Date.now() - changedAt;
  t.true(elapsed <= 1500, `ended ${elapsed} ms after the change`);
  t.like(errorEvent(stream)!.data, { reason: 'access_revoked' });
  t.regex(errorEvent(stream)!.data.detail, /incidents:read/);
  const eventsAtEnd = stream.events.length;
  await stream.close();
  t.is(stream.events.length, eventsAtEnd, 'nothing after the error');
});

test('a deny override on sync:read ends an open sync stream', async (t) => {
  const owner = app.newTenant();
  const viewer = await newViewer(owner, 'denied@example.com');
  const stream = openStream(t, '/api/v1/sync/stream', app.token(viewer));
  await waitFor(() => stream.events.some((e) => e.event === 'sync_update'), { message: 'the first sync_update' });
  const denied = await app.request('PUT', `/api/v1/users/${viewer.userId}/permission-overrides`, {
    caller: owner,
    body: { permissions: { 'sync:read': 'deny' } },
  });
  t.is(denied.status, 200, JSON.stringify(denied.body));
  await waitFor(() => errorEvent(stream) !== undefined, { timeoutMs: 3000, message: 'event: error' });
  t.like(errorEvent(stream)!.data, { reason: 'access_revoked' });
  t.regex(errorEvent(stream)!.data.detail, /sync:read/);
});

test("a stream ends at its token's expiry with event: error naming it", async (t) => {
  const owner = app.newTenant();
  const stream = openStream(t, '/api/v1/incidents/stream', app.token(owner, { expiresInSeconds: 2 }));
  await waitFor(() => stream.status() !== 0, { message: 'the stream answer' });
  t.is(stream.status(), 200);
  await waitFor(() => errorEvent(stream) !== undefined, { timeoutMs: 4000, message: 'event: error at expiry' });
  t.like(errorEvent(stream)!.data, { reason: 'token_expired' });
});

test('a stream opened with a 30-day token stays open (a timer set for its expiry would overflow and fire at once)', async (t) => {
  const owner = app.newTenant();
  const stream = openStream(t, '/api/v1/incidents/stream', app.token(owner, { expiresInSeconds: 30 * 24 * 3600 }));
  await waitFor(() => stream.status() !== 0, { message: 'the stream answer' });
  const before = Date.now();
  await waitFor(() => Date.now() - before > 1200 || errorEvent(stream) !== undefined, {
    timeoutMs: 3000,
    message: 'a check interval',
  });
  t.is(errorEvent(stream), undefined);
});

test('a stream whose caller keeps the permission stays open across IAM changes in the tenant', async (t) => {
  const owner = app.newTenant();
  const stream = openStream(t, '/api/v1/incidents/stream', app.token(owner));
  await waitFor(() => stream.status() !== 0, { message: 'the stream answer' });
  await newViewer(owner, 'unrelated@example.com'); // an IAM change in the tenant, not taking anything from the owner
  const before = Date.now();
  // Past one check interval (1 s) the stream is still open.
  await waitFor(() => Date.now() - before > 1200 || errorEvent(stream) !== undefined, {
    timeoutMs: 3000,
    message: 'a check interval',
  });
  t.is(errorEvent(stream), undefined);
});
