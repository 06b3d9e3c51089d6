import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { asUser, uniqueAddress } from './support/user-callers.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const email = uniqueAddress;
const create = async (owner: Caller, body: Record<string, unknown> = {}) => {
  const response = await app.request('POST', '/api/v1/users', {
    caller: owner,
    body: { email: email(), name: 'Someone', role_id: 'viewer', group_ids: [], ...body },
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; email: string };
};

test('a created user has exactly the spec fields plus invitation_status and phone (for sms pages)', async (t) => {
  const owner = app.newTenant();
  const response = await app.request('POST', '/users', {
    caller: owner,
    body: { email: ' Kim@Example.com ', name: ' Kim ', role_id: 'responder' },
  });
  t.is(response.status, 201);
  t.is(response.headers.get('etag'), '"1"', 'created, then the invitation outcome');
  const { id, created_at: createdAt, ...rest } = response.body.data;
  t.regex(id, /^[0-9a-f-]{36}$/);
  t.regex(createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.deepEqual(rest, {
    email: 'Kim@Example.com',
    name: 'Kim',
    role_id: 'responder',
    group_ids: [],
    last_login: null,
    is_active: true,
    invitation_status: 'sent',
    phone: null,
  });
  t.deepEqual((await app.request('GET', `/api/v1/users/${id}`, { caller: owner })).body.data, response.body.data);
});

const invalid: [string, Record<string, unknown>, string[], RegExp?][] = [
  ['an invalid email', { email: 'not-an-address' }, ['/email']],
  ['a missing name', { name: undefined }, ['/name']],
  ['an unknown field', { password: 'x' }, ['/']],
  ['group_ids that is not a list', { group_ids: 'abc' }, ['/group_ids']],
  ['an unknown role', { role_id: 'superhero' }, ['/role_id'], /unknown role superhero/],
  [
    'unknown groups',
    { group_ids: ['g-1', randomUUID()] },
    ['/group_ids/0', '/group_ids/1'],
    /unknown group g-1, group /,
  ],
];

for (const [title, patch, paths, detail] of invalid) {
  test(`create with ${title} is 400 naming it, and nothing is created`, async (t) => {
    const owner = app.newTenant();
    const response = await app.request('POST', '/users', {
      caller: owner,
      body: { email: email(), name: 'X', role_id: 'viewer', group_ids: [], ...patch },
    });
    t.is(response.status, 400);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    const reported = (response.body.errors as { path: string }[]).map((e) => e.path);
    for (const path of paths) t.true(reported.includes(path), `expected ${path} in ${reported.join(', ')}`);
    if (detail) t.regex(response.body.detail, detail);
    t.deepEqual((await app.request('GET', '/users', { caller: owner })).body.data, []);
  });
}

test("another tenant's role or group is unknown", async (t) => {
  const other = app.newTenant();
  const role = (
    await app.request('POST', '/api/v1/roles', { caller: other, body: { name: 'Theirs', permissions: {} } })
  ).body.data;
  const group = (
    await app.request('POST', '/api/v1/groups', { caller: other, body: { name: 'Theirs', permissions: {} } })
  ).body.data;
  const owner = app.newTenant();
  const response = await app.request('POST', '/users', {
    caller: owner,
    body: { email: email(), name: 'X', role_id: role.id, group_ids: [group.id] },
  });
  t.is(response.status, 400);
  t.deepEqual(
    response.body.errors.map((e: { path: string }) => e.path),
    ['/role_id', '/group_ids/0'],
  );
});

test('PUT with the whole profile replaces it, PATCH changes only what it names, and a stale If-Match is 409', async (t) => {
  const owner = app.newTenant();
  const group = (await app.request('POST', '/api/v1/groups', { caller: owner, body: { name: 'G', permissions: {} } }))
    .body.data;
  const user = await create(owner);
  const put = await app.request('PUT', `/users/${user.id}`, {
    caller: owner,
    body: { email: user.email, name: 'Renamed', role_id: null, group_ids: [group.id] },
  });
  t.is(put.status, 200);
  t.like(put.body.data, { name: 'Renamed', role_id: null, group_ids: [group.id], is_active: true });
  const etag = put.headers.get('etag')!;
  const patched = await app.request('PATCH', `/users/${user.id}`, {
    caller: owner,
    body: { role_id: 'responder' },
    headers: { 'if-match': etag },
  });
  t.is(patched.status, 200);
  t.like(patched.body.data, { name: 'Renamed', role_id: 'responder', group_ids: [group.id] });
  const stale = await app.request('PATCH', `/users/${user.id}`, {
    caller: owner,
    body: { name: 'Stale' },
    headers: { 'if-match': etag },
  });
  t.is(stale.status, 409);
  t.is((await app.request('GET', `/users/${user.id}`, { caller: owner })).body.data.name, 'Renamed');
  t.is((await app.request('PATCH', `/users/${user.id}`, { caller: owner, body: {} })).status, 400);
  t.is((await app.request('PATCH', `/users/${user.id}`, { caller: owner, body: { role_id: 'nope' } })).status, 400);
  t.is((await app.request('PATCH', `/users/${randomUUID()}`, { caller: owner, body: { name: 'x' } })).status, 404);
  t.is((await app.request('PATCH', '/users/not-a-uuid', { caller: owner, body: { name: 'x' } })).status, 404);
});

test('PUT takes any subset of the fields (SPEC.md: "Update with is_active false"): the others keep their value; the user is then refused', async (t) => {
  const owner = app.newTenant();
  const group = (await app.request('POST', '/api/v1/groups', { caller: owner, body: { name: 'G', permissions: {} } }))
    .body.data;
  const user = await create(owner, { group_ids: [group.id], phone: '+447700900123' });
  t.is((await app.request('GET', '/users', { caller: asUser(owner, user.id) })).status, 200, 'active: may act');
  const deactivated = await app.request('PUT', `/users/${user.id}`, { caller: owner, body: { is_active: false } });
  t.is(deactivated.status, 200);
  t.like(deactivated.body.data, {
    id: user.id,
    email: user.email,
    name: 'Someone',
    role_id: 'viewer',
    group_ids: [group.id],
    phone: '+447700900123',
    is_active: false,
  });
  const refused = await app.request('GET', '/users', { caller: asUser(owner, user.id) });
  t.is(refused.status, 403, 'a deactivated user is refused');
  t.regex(refused.body.detail, /deactivated/);
  const renamed = await app.request('PUT', `/users/${user.id}`, { caller: owner, body: { name: 'Only a name' } });
  t.like(renamed.body.data, {
    name: 'Only a name',
    email: user.email,
    group_ids: [group.id],
    phone: '+447700900123',
    is_active: false,
  });
  t.is(
    (await app.request('PUT', `/users/${user.id}`, { caller: owner, body: { role_id: 'superhero' } })).status,
    400,
    'a changed role is still checked',
  );
  t.is(
    (
      await app.request('PUT', `/users/${user.id}`, {
        caller: owner,
        body: { name: 'New', role_id: 'viewer', group_ids: [], is_active: true, email: user.email, phone: null },
      })
    ).status,
    200,
    'a whole body still works',
  );
});

test('PUT refuses an empty body, unknown and read-only fields, and a stale If-Match; each changes nothing', async (t) => {
  const owner = app.newTenant();
  const user = await create(owner);
  const etag = (await app.request('PUT', `/users/${user.id}`, { caller: owner, body: { name: 'Kept' } })).headers.get(
    'etag',
  )!;
  const before = (await app.request('GET', `/users/${user.id}`, { caller: owner })).body.data;
  const refusals: [Record<string, unknown>, string[], Record<string, string>?][] = [
    [{}, ['/']],
    [{ is_active: false, password: 'x' }, ['/']],
    [{ name: 'X', id: randomUUID() }, ['/']],
    [{ name: 'X', created_at: '2026-01-01T00:00:00Z' }, ['/']],
    [{ is_active: 'no' }, ['/is_active']],
  ];
  for (const [body, paths] of refusals) {
    const response = await app.request('PUT', `/users/${user.id}`, { caller: owner, body });
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.deepEqual(
      response.body.errors.map((e: { path: string }) => e.path),
      paths,
      JSON.stringify(body),
    );
  }
  t.regex(
    (await app.request('PUT', `/users/${user.id}`, { caller: owner, body: {} })).body.errors[0].message,
    /at least one of email, name/,
  );
  await app.request('PUT', `/users/${user.id}`, {
    caller: owner,
    body: { name: 'Newer' },
    headers: { 'if-match': etag },
  });
  const stale = await app.request('PUT', `/users/${user.id}`, {
    caller: owner,
    body: { is_active: false },
    headers: { 'if-match': etag },
  });
  t.is(stale.status, 409);
  t.deepEqual(
    (await app.request('GET', `/users/${user.id}`, { caller: owner })).body.data,
    { ...before, name: 'Newer' },
    'the stale PUT changed nothing',
  );
});

test('changing the email moves the reservation: the new address is taken, the old one is free', async (t) => {
  const owner = app.newTenant();
  const first = await create(owner);
  const second = await create(owner);
  t.is(
    (await app.request('PATCH', `/users/${second.id}`, { caller: owner, body: { email: first.email.toUpperCase() } }))
      .status,
    409,
    "another user's address",
  );
  const newAddress = email('moved');
  t.is((await app.request('PATCH', `/users/${first.id}`, { caller: owner, body: { email: newAddress } })).status, 200);
  t.is(
    (await app.request('POST', '/users', { caller: owner, body: { email: newAddress, name: 'X', role_id: 'viewer' } }))
      .status,
    409,
  );
  t.is(
    (await app.request('PATCH', `/users/${second.id}`, { caller: owner, body: { email: first.email } })).status,
    200,
    'the old address was released',
  );
  t.is(
    (await app.request('PATCH', `/users/${first.id}`, { caller: owner, body: { email: newAddress.toUpperCase() } }))
      .status,
    200,
    'a change of case only keeps the reservation',
  );
});

test('list filters: is_active, email (any case) and group_id; bad filter values are 400', async (t) => {
  const owner = app.newTenant();
  const group = (await app.request('POST', '/api/v1/groups', { caller: owner, body: { name: 'G', permissions: {} } }))
    .body.data;
  const a = await create(owner, { group_ids: [group.id] });
  const b = await create(owner, { is_active: false });
  const ids = async (query: string) =>
    (await app.request('GET', `/users${query}`, { caller: owner })).body.data.map((u: { id: string }) => u.id);
  t.deepEqual(await ids(''), [b.id, a.id], 'newest first');
  t.deepEqual(await ids('?is_active=true'), [a.id]);
  t.deepEqual(await ids('?is_active=false'), [b.id]);
  t.deepEqual(await ids(`?email=${encodeURIComponent(a.email.toUpperCase())}`), [a.id]);
  t.deepEqual(await ids(`?group_id=${group.id}`), [a.id]);
  t.deepEqual(await ids(`?group_id=${group.id}&is_active=false`), []);
  t.is((await app.request('GET', '/users?is_active=maybe', { caller: owner })).status, 400);
  const page = await app.request('GET', '/users?limit=1', { caller: owner });
  t.deepEqual(
    page.body.data.map((u: { id: string }) => u.id),
    [b.id],
  );
  const next = await app.request('GET', `/users?limit=1&cursor=${page.body.page.next_cursor}`, { caller: owner });
  t.deepEqual(
    next.body.data.map((u: { id: string }) => u.id),
    [a.id],
  );
  t.is(next.body.page.next_cursor, null);
});

test('iam:write cannot hand out acting permissions it lacks; iam:admin can', async (t) => {
  const owner = app.newTenant();
  const writer = await create(owner, { role_id: 'viewer' });
  await app.request('PUT', `/api/v1/users/${writer.id}/permission-overrides`, {
    caller: owner,
    body: { permissions: { 'iam:write': 'allow' } },
  });
  const caller = asUser(owner, writer.id);
  const escalation = await app.request('POST', '/users', {
    caller,
    body: { email: email(), name: 'My alter ego', role_id: 'owner' },
  });
  t.is(escalation.status, 403);
  t.regex(escalation.body.detail, /assigning owner would grant permissions you do not hold \(.*iam:admin.*\)/);
  t.is(
    (await app.request('PATCH', `/users/${writer.id}`, { caller, body: { role_id: 'admin' } })).status,
    403,
    'not even for itself',
  );
  const helper = await create(owner, { role_id: 'viewer' });
  t.is(
    (await app.request('PATCH', `/users/${helper.id}`, { caller, body: { name: 'Renamed by a writer' } })).status,
    200,
    'editing without granting is fine',
  );
  t.is(
    (await app.request('POST', '/users', { caller: owner, body: { email: email(), name: 'Admin', role_id: 'admin' } }))
      .status,
    201,
  );
  t.is((await app.request('DELETE', `/users/${helper.id}`, { caller })).status, 403, 'deleting needs iam:admin');
});

test('nobody deletes or deactivates themselves', async (t) => {
  const owner = app.newTenant();
  const admin = await create(owner, { role_id: 'owner' });
  const caller = asUser(owner, admin.id);
  t.is((await app.request('DELETE', `/users/${admin.id}`, { caller })).status, 409);
  t.is((await app.request('PATCH', `/users/${admin.id}`, { caller, body: { is_active: false } })).status, 409);
  t.is((await app.request('GET', `/users/${admin.id}`, { caller })).body.data.is_active, true);
});

test("a token of another tenant that carries a user's id is not that user", async (t) => {
  const owner = app.newTenant();
  const user = await create(owner, { role_id: 'viewer' });
  await app.request('PATCH', `/users/${user.id}`, { caller: owner, body: { is_active: false } });
  const elsewhere = { ...app.newTenant(), userId: user.id };
  t.is(
    (await app.request('GET', '/users', { caller: elsewhere })).status,
    200,
    'no record in its own tenant: its token roles (owner) apply',
  );
  t.deepEqual((await app.request('GET', '/users', { caller: elsewhere })).body.data, []);
  t.is((await app.request('GET', `/users/${user.id}`, { caller: elsewhere })).status, 404);
});
