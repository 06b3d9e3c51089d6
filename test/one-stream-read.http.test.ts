/**
 * A command reads its resource's stream once (issue 9): routes that look at the stream before
 * deciding (existence, If-Match, the rule's environment, the current name or email) hand what they
 * read to the command handler instead of letting it read again. Counted on the platform's own
 * event store, per stream name, so other streams (name and email reservations) do not count.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../src/eventstore/port.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
const reads = new Map<string, number>();
test.before(async () => {
  app = await startTestApp();
  // The command handlers hold this very object, so replacing its method sees every read they make.
  const store: EventStore = app.platform.eventStore;
  const readStream = store.readStream.bind(store);
  store.readStream = (stream, options) => {
    reads.set(stream, (reads.get(stream) ?? 0) + 1);
    return readStream(stream, options);
  };
});
test.after.always(async () => app?.close());

/** How often `stream` is read while `command` runs (one test at a time: tests here are serial). */
async function readsOf(stream: string, command: () => Promise<{ status: number }>) {
  reads.delete(stream);
  const { status } = await command();
  return { status, reads: reads.get(stream) ?? 0 };
}

async function created(caller: Caller, path: string, body: unknown): Promise<string> {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

test.serial('a user PUT or PATCH, with If-Match and an email change, reads the user stream once', async (t) => {
  const owner = app.newTenant();
  const id = await created(owner, '/users', {
    email: `kim-${randomUUID()}@example.com`,
    name: 'Kim',
    role_id: 'viewer',
    group_ids: [],
  });
  const revision = (await app.request('GET', `/users/${id}`, { caller: owner })).headers.get('etag')!;

  const patched = await readsOf(`user-${id}`, () =>
    app.request('PATCH', `/users/${id}`, {
      caller: owner,
      body: { name: 'Kim K', email: `kim-${randomUUID()}@example.com` },
      headers: { 'if-match': revision },
    }),
  );
  t.deepEqual(patched, { status: 200, reads: 1 });

  const replaced = await readsOf(`user-${id}`, () =>
    app.request('PUT', `/users/${id}`, {
      caller: owner,
      body: { email: `kim-${randomUUID()}@example.com`, name: 'Kim', role_id: 'responder', group_ids: [] },
    }),
  );
  t.deepEqual(replaced, { status: 200, reads: 1 });
});

test.serial(
  'an alert-rule PUT or PATCH reads the rule stream once (references are checked on what was read)',
  async (t) => {
    const owner = app.newTenant();
    const channel = await created(owner, '/api/v1/notification-channels', {
      name: 'ops',
      type: 'chat',
      config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' },
    });
    const policy = await created(owner, '/api/v1/escalation-policies', {
      name: 'DBA',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel }] }],
    });
    const rule = {
      name: 'Queue wait',
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 5,
      severity: 'high',
      escalation_policy_id: policy,
    };
    const id = await created(owner, '/api/v1/alert-rules', rule);

    const patched = await readsOf(`alertRule-${id}`, () =>
      app.request('PATCH', `/api/v1/alert-rules/${id}`, { caller: owner, body: { threshold: 45 } }),
    );
    t.deepEqual(patched, { status: 200, reads: 1 });

    const replaced = await readsOf(`alertRule-${id}`, () =>
      app.request('PUT', `/api/v1/alert-rules/${id}`, { caller: owner, body: { ...rule, threshold: 50 } }),
    );
    t.deepEqual(replaced, { status: 200, reads: 1 });
    t.is((await app.request('GET', `/api/v1/alert-rules/${id}`, { caller: owner })).body.data.threshold, 50);
  },
);

test.serial('renaming a role reads the role stream once', async (t) => {
  const owner = app.newTenant();
  const id = await created(owner, '/api/v1/roles', { name: `role ${randomUUID()}`, permissions: {} });
  const renamed = await readsOf(`role-${id}`, () =>
    app.request('PUT', `/api/v1/roles/${id}`, {
      caller: owner,
      body: { name: `renamed ${randomUUID()}`, permissions: {} },
    }),
  );
  t.deepEqual(renamed, { status: 200, reads: 1 });
});
