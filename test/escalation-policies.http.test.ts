import test from 'ava';
import { randomUUID } from 'node:crypto';
import { onCallTenant, POLICIES } from './support/escalation-policy-fixtures.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const emailChannel = {
  name: 'DBA mail',
  type: 'email',
  config: { recipients: ['dba@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
};
const newChannel = async (caller: Caller) =>
  (await app.request('POST', '/notification-channels', { caller, body: emailChannel })).body.data.id as string;
const create = (caller: Caller, body: unknown) => app.request('POST', POLICIES, { caller, body });
const listIds = async (caller: Caller) =>
  (await app.request('GET', POLICIES, { caller })).body.data.map((p: { id: string }) => p.id);

test('create, list, read, replace and delete a policy with envelopes and ETags', async (t) => {
  const { caller, onCall, policy } = await onCallTenant(app);
  const channelId = await newChannel(caller);
  const created = await create(caller, {
    ...policy,
    description: 'pages the warehouse on-call, then the DBA list',
    stages: [...policy.stages, { stage_order: 2, delay_minutes: 15, targets: [{ type: 'channel', id: channelId }] }],
  });
  t.is(created.status, 201);
  t.true(created.body.success);
  const id = created.body.data.id as string;
  t.is(created.headers.get('location'), `${POLICIES}/${id}`);
  t.is(created.headers.get('etag'), '"0"');
  t.deepEqual(created.body.data, {
    id,
    name: 'Warehouse on-call',
    description: 'pages the warehouse on-call, then the DBA list',
    stages: [
      { stage_order: 1, delay_minutes: 0, targets: [onCall] },
      { stage_order: 2, delay_minutes: 15, targets: [{ type: 'channel', id: channelId, channels: [] }] },
    ],
    repeat_interval_minutes: 0,
    created_at: created.body.data.created_at,
    updated_at: created.body.data.created_at,
  });
  t.regex(created.body.data.created_at, /^\d{4}-\d\d-\d\dT/);

  const listed = await app.request('GET', POLICIES, { caller });
  t.is(listed.status, 200);
  t.deepEqual(listed.body.data, [created.body.data]);
  t.deepEqual(listed.body.page, { limit: 50, next_cursor: null });

  const read = await app.request('GET', `${POLICIES}/${id}`, { caller });
  t.is(read.status, 200);
  t.is(read.headers.get('etag'), '"0"');
  t.deepEqual(read.body, { success: true, data: created.body.data });

  const replaced = await app.request('PUT', `${POLICIES}/${id}`, {
    caller,
    body: { ...policy, name: 'Replaced', repeat_interval_minutes: 30 },
  });
  t.is(replaced.status, 200);
  t.is(replaced.headers.get('etag'), '"1"');
  t.like(replaced.body.data, {
    id,
    name: 'Replaced',
    description: null,
    repeat_interval_minutes: 30,
    created_at: created.body.data.created_at,
  });
  t.deepEqual(replaced.body.data.stages, policy.stages, 'the second stage is gone: PUT replaces the stages');

  const deleted = await app.request('DELETE', `${POLICIES}/${id}`, { caller });
  t.is(deleted.status, 200);
  t.deepEqual(deleted.body, { success: true, data: { id, deleted: true } });
  t.is((await app.request('GET', `${POLICIES}/${id}`, { caller })).status, 404);
  t.is((await app.request('PUT', `${POLICIES}/${id}`, { caller, body: policy })).status, 404);
  t.is((await app.request('DELETE', `${POLICIES}/${id}`, { caller })).status, 404);
  t.deepEqual(await listIds(caller), []);
});

test('a policy read with GET can be sent back unchanged with PUT', async (t) => {
  const { caller, onCall, policy } = await onCallTenant(app);
  const channelId = await newChannel(caller);
  const id = (
    await create(caller, {
      ...policy,
      stages: [{ ...policy.stages[0]!, targets: [onCall, { type: 'channel', id: channelId }] }],
    })
  ).body.data.id;
  const { name, description, stages, repeat_interval_minutes } = (
    await app.request('GET', `${POLICIES}/${id}`, { caller })
  ).body.data;
  const put = await app.request('PUT', `${POLICIES}/${id}`, {
    caller,
    body: { name, description, stages, repeat_interval_minutes },
  });
  t.is(put.status, 200);
  t.deepEqual(put.body.data.stages, stages);
});

test('the policy routes are served under /api/v1 only', async (t) => {
  const { caller, policy } = await onCallTenant(app);
  t.is((await app.request('GET', '/escalation-policies', { caller })).status, 404);
  t.is((await app.request('POST', '/escalation-policies', { caller, body: policy })).status, 404);
  t.deepEqual(await listIds(caller), []);
});

test('users and groups of the tenant are valid targets; removed users and foreign ones are not', async (t) => {
  const { caller, policy, stage, withTarget } = await onCallTenant(app);
  const stranger = app.newTenant();
  const newUser = async (who: Caller, email: string) =>
    (await app.request('POST', '/users', { caller: who, body: { email, name: email } })).body.data.id as string;
  const [alice, bob, foreigner] = [
    await newUser(caller, 'alice@example.com'),
    await newUser(caller, 'bob@example.com'),
    await newUser(stranger, 'eve@example.com'),
  ];
  const group = (await app.request('POST', '/api/v1/groups', { caller, body: { name: 'DBAs', permissions: {} } })).body
    .data.id as string;
  const people = (...ids: string[]) =>
    ids.map((id, i) => ({ type: i === 0 ? 'group' : 'user', id, channels: ['email'] }));

  t.is((await create(caller, { ...policy, stages: [stage(1, 0, people(group, alice, bob))] })).status, 201);
  // Deactivation is reversible and targets resolve at notification time, so an inactive user stays a valid target.
  t.is((await app.request('PATCH', `/users/${bob}`, { caller, body: { is_active: false } })).status, 200);
  t.is((await create(caller, { ...policy, stages: [stage(1, 0, people(group, bob))] })).status, 201);

  t.is((await app.request('DELETE', `/users/${alice}`, { caller })).status, 200);
  const removed = await create(caller, { ...policy, stages: [stage(1, 0, people(group, alice, foreigner))] });
  t.is(removed.status, 400);
  t.deepEqual(removed.body.errors, [
    { path: '/stages/0/targets/1/id', message: `no user ${alice} in this tenant` },
    { path: '/stages/0/targets/2/id', message: `no user ${foreigner} in this tenant` },
  ]);
  const foreignGroup = await create(stranger, withTarget({ type: 'group', id: group, channels: ['chat'] }));
  t.deepEqual(foreignGroup.body.errors, [
    { path: '/stages/0/targets/0/id', message: `no group ${group} in this tenant` },
  ]);
  t.is((await app.request('GET', POLICIES, { caller })).body.data.length, 2);
});

test("another tenant's channel is not a valid target", async (t) => {
  const { caller: owner, withTarget } = await onCallTenant(app);
  const intruder = app.newTenant();
  const channelId = await newChannel(owner);
  const response = await create(intruder, withTarget({ type: 'channel', id: channelId }));
  t.is(response.status, 400);
  t.deepEqual(response.body.errors, [
    { path: '/stages/0/targets/0/id', message: `no notification channel ${channelId} in this tenant` },
  ]);
  t.deepEqual(await listIds(intruder), []);
  t.is((await create(owner, withTarget({ type: 'channel', id: channelId }))).status, 201, 'its own tenant may use it');
});

test('a channel that a policy targets cannot be deleted until no policy targets it', async (t) => {
  const { caller, onCall, policy, stage } = await onCallTenant(app);
  const [freedByDelete, freedByReplace] = [await newChannel(caller), await newChannel(caller)];
  const first = (
    await create(caller, { ...policy, name: 'First', stages: [stage(1, 0, [{ type: 'channel', id: freedByDelete }])] })
  ).body.data.id;
  const second = (
    await create(caller, {
      ...policy,
      name: 'Second',
      stages: [stage(1, 0, [onCall]), stage(2, 10, [{ type: 'channel', id: freedByReplace }])],
    })
  ).body.data.id;

  for (const [channelId, name, policyId] of [
    [freedByDelete, 'First', first],
    [freedByReplace, 'Second', second],
  ] as const) {
    const refused = await app.request('DELETE', `/notification-channels/${channelId}`, { caller });
    t.is(refused.status, 409);
    t.is(refused.headers.get('content-type'), 'application/problem+json');
    t.deepEqual(refused.body.referenced_by, [{ id: policyId, name }], 'the same shape as a refused policy delete');
    t.regex(refused.body.detail, new RegExp(name));
    t.is((await app.request('GET', `/notification-channels/${channelId}`, { caller })).status, 200, 'still there');
  }

  t.is((await app.request('DELETE', `${POLICIES}/${first}`, { caller })).status, 200);
  t.is((await app.request('DELETE', `/notification-channels/${freedByDelete}`, { caller })).status, 200);
  t.is((await app.request('PUT', `${POLICIES}/${second}`, { caller, body: policy })).status, 200);
  t.is((await app.request('DELETE', `/api/v1/notification-channels/${freedByReplace}`, { caller })).status, 200);
});

test("another tenant's policy is 404 for read, replace and delete, and absent from lists", async (t) => {
  const { caller: owner, policy } = await onCallTenant(app);
  const { caller: intruder, policy: intruderPolicy } = await onCallTenant(app);
  const id = (await create(owner, policy)).body.data.id;
  t.is((await app.request('GET', `${POLICIES}/${id}`, { caller: intruder })).status, 404);
  t.is((await app.request('PUT', `${POLICIES}/${id}`, { caller: intruder, body: intruderPolicy })).status, 404);
  t.is((await app.request('DELETE', `${POLICIES}/${id}`, { caller: intruder })).status, 404);
  t.deepEqual(await listIds(intruder), []);
  const unchanged = await app.request('GET', `${POLICIES}/${id}`, { caller: owner });
  t.is(unchanged.status, 200);
  t.is(unchanged.headers.get('etag'), '"0"');
});

test('a stale If-Match is 409 and changes nothing; a current one applies', async (t) => {
  const { caller, policy } = await onCallTenant(app);
  const id = (await create(caller, policy)).body.data.id;
  await app.request('PUT', `${POLICIES}/${id}`, { caller, body: { ...policy, name: 'v2' } });
  const stale = await app.request('PUT', `${POLICIES}/${id}`, {
    caller,
    body: { ...policy, name: 'v3' },
    headers: { 'if-match': '"0"' },
  });
  t.is(stale.status, 409);
  t.is(stale.headers.get('content-type'), 'application/problem+json');
  t.is((await app.request('DELETE', `${POLICIES}/${id}`, { caller, headers: { 'if-match': '"0"' } })).status, 409);
  t.is((await app.request('GET', `${POLICIES}/${id}`, { caller })).body.data.name, 'v2');
  t.is(
    (await app.request('PUT', `${POLICIES}/${id}`, { caller, body: policy, headers: { 'if-match': 'garbage' } }))
      .status,
    400,
  );
  const current = await app.request('PUT', `${POLICIES}/${id}`, {
    caller,
    body: { ...policy, name: 'v3' },
    headers: { 'if-match': '"1"' },
  });
  t.is(current.status, 200);
  t.is(current.body.data.name, 'v3');
  t.is((await app.request('DELETE', `${POLICIES}/${id}`, { caller, headers: { 'if-match': '"2"' } })).status, 200);
});

test('an invalid replacement is 400 and leaves the policy as it was', async (t) => {
  const { caller, policy, stage } = await onCallTenant(app);
  const id = (await create(caller, policy)).body.data.id;
  const refused = await app.request('PUT', `${POLICIES}/${id}`, {
    caller,
    body: { ...policy, stages: [stage(1, 0), stage(2, 0)] },
  });
  t.is(refused.status, 400);
  const after = await app.request('GET', `${POLICIES}/${id}`, { caller });
  t.is(after.headers.get('etag'), '"0"');
  t.deepEqual(after.body.data.stages, policy.stages);
});

test('cursor pages visit every policy once, newest first', async (t) => {
  const { caller, policy } = await onCallTenant(app);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await create(caller, { ...policy, name: `p${i}` })).body.data.id);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { data: { id: string }[]; page: { next_cursor: string | null } } } =
      await app.request('GET', `${POLICIES}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { caller });
    t.is(page.status, 200);
    t.true(page.body.data.length <= 2);
    seen.push(...page.body.data.map((p) => p.id));
    cursor = page.body.page.next_cursor;
  } while (cursor);
  t.deepEqual(seen, [...ids].reverse());
});

test('a caller without the escalation permissions is 403', async (t) => {
  const { policy } = await onCallTenant(app);
  const caller = { ...app.newTenant(), roles: [] };
  t.is((await create(caller, policy)).status, 403);
  t.is((await app.request('DELETE', `${POLICIES}/${randomUUID()}`, { caller })).status, 403);
});
