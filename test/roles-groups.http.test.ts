import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { asUser } from './support/user-callers.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const createUser = async (owner: Caller, body: Record<string, unknown> = {}) =>
  (
    await app.request('POST', '/users', {
      caller: owner,
      body: { email: `u-${randomUUID().slice(0, 8)}@example.com`, name: 'U', role_id: 'viewer', ...body },
    })
  ).body.data as { id: string; email: string };
const post = async (owner: Caller, path: string, body: unknown) => {
  const response = await app.request('POST', path, { caller: owner, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; [field: string]: unknown };
};

test('every tenant has the built-in roles, readable and neither editable nor deletable', async (t) => {
  const owner = app.newTenant();
  const listed = await app.request('GET', '/api/v1/roles', { caller: owner });
  t.is(listed.status, 200);
  t.deepEqual(listed.body.data.map((r: { id: string }) => r.id).sort(), ['admin', 'owner', 'responder', 'viewer']);
  const viewer = await app.request('GET', '/api/v1/roles/viewer', { caller: owner });
  t.like(viewer.body.data, { id: 'viewer', name: 'viewer', built_in: true, created_at: null });
  t.is(viewer.body.data.permissions['iam:read'], 'allow');
  t.is(viewer.body.data.permissions['iam:write'], 'deny');
  for (const [method, body] of [
    ['PUT', { name: 'viewer', permissions: {} }],
    ['DELETE', undefined],
  ] as const) {
    const refused = await app.request(method, '/api/v1/roles/owner', { caller: owner, body });
    t.is(refused.status, 409, method);
    t.regex(refused.body.detail, /built-in role/);
  }
  t.is((await app.request('GET', '/roles', { caller: owner })).status, 404, 'roles are served under /api/v1 only');
});

test('custom roles: create, read, replace and delete; unknown permission names are 400, each listed', async (t) => {
  const owner = app.newTenant();
  const bad = await app.request('POST', '/api/v1/roles', {
    caller: owner,
    body: { name: 'Typo', permissions: { 'alerts:wirte': 'allow', 'iam:read': 'maybe', 'nope:x': 'deny' } },
  });
  t.is(bad.status, 400);
  t.deepEqual(bad.body.errors.map((e: { path: string }) => e.path).sort(), [
    '/permissions/alerts:wirte',
    '/permissions/iam:read',
    '/permissions/nope:x',
  ]);
  t.true(bad.body.errors.some((e: { message: string }) => e.message === 'unknown permission alerts:wirte'));
  t.deepEqual(
    (await app.request('GET', '/api/v1/roles?limit=10', { caller: owner })).body.data.length,
    4,
    'nothing was created',
  );
  t.is(
    (await app.request('POST', '/api/v1/roles', { caller: owner, body: { name: 'owner', permissions: {} } })).status,
    409,
    'built-in names are taken',
  );

  const role = await post(owner, '/api/v1/roles', { name: 'Triage', permissions: { 'incidents:write': 'allow' } });
  t.like(role, { name: 'Triage', description: null, built_in: false, permissions: { 'incidents:write': 'allow' } });
  const replaced = await app.request('PUT', `/api/v1/roles/${role.id}`, {
    caller: owner,
    body: { name: 'Triage', description: 'First line', permissions: { 'incidents:read': 'allow' } },
  });
  t.is(replaced.status, 200);
  t.like(replaced.body.data, { description: 'First line', permissions: { 'incidents:read': 'allow' } });
  const read = await app.request('GET', `/api/v1/roles/${role.id}`, { caller: owner });
  t.is(read.headers.get('etag'), '"1"');
  t.deepEqual(read.body.data, replaced.body.data);
  t.is((await app.request('DELETE', `/api/v1/roles/${role.id}`, { caller: owner })).status, 200);
  t.is((await app.request('GET', `/api/v1/roles/${role.id}`, { caller: owner })).status, 404);
  t.is(
    (await app.request('PUT', `/api/v1/roles/${role.id}`, { caller: owner, body: { name: 'x', permissions: {} } }))
      .status,
    404,
  );
});

test('a role users hold cannot be deleted until they hold another', async (t) => {
  const owner = app.newTenant();
  const role = await post(owner, '/api/v1/roles', { name: 'Custom', permissions: {} });
  const user = await createUser(owner, { role_id: role.id });
  const refused = await app.request('DELETE', `/api/v1/roles/${role.id}`, { caller: owner });
  t.is(refused.status, 409);
  t.like(refused.body, { users: 1 });
  await app.request('PATCH', `/users/${user.id}`, { caller: owner, body: { role_id: 'viewer' } });
  t.is((await app.request('DELETE', `/api/v1/roles/${role.id}`, { caller: owner })).status, 200);
});

test("a role change applies to its holders' very next request", async (t) => {
  const owner = app.newTenant();
  const role = await post(owner, '/api/v1/roles', {
    name: 'Channel readers',
    permissions: { 'channels:read': 'deny' },
  });
  const caller = asUser(owner, (await createUser(owner, { role_id: role.id })).id);
  t.is((await app.request('GET', '/notification-channels', { caller })).status, 403);
  await app.request('PUT', `/api/v1/roles/${role.id}`, {
    caller: owner,
    body: { name: 'Channel readers', permissions: { 'channels:read': 'allow' } },
  });
  t.is((await app.request('GET', '/notification-channels', { caller })).status, 200);
});

test('groups: CRUD, membership by route and by group_ids, and no deletion while they have members', async (t) => {
  const owner = app.newTenant();
  const group = await post(owner, '/api/v1/groups', {
    name: 'DBAs',
    description: 'Data',
    permissions: { 'warehouse:read': 'allow' },
  });
  t.like(group, { name: 'DBAs', description: 'Data', member_ids: [] });
  const alice = await createUser(owner, { group_ids: [group.id] });
  const bob = await createUser(owner);
  t.deepEqual(
    (await app.request('PUT', `/api/v1/groups/${group.id}/members/${bob.id}`, { caller: owner })).body.data.member_ids,
    [alice.id, bob.id],
  );
  t.is(
    (await app.request('PUT', `/api/v1/groups/${group.id}/members/${bob.id}`, { caller: owner })).status,
    200,
    'adding twice is harmless',
  );
  t.deepEqual((await app.request('GET', `/users/${bob.id}`, { caller: owner })).body.data.group_ids, [group.id]);
  t.is((await app.request('PUT', `/api/v1/groups/${group.id}/members/${randomUUID()}`, { caller: owner })).status, 404);
  t.is((await app.request('PUT', `/api/v1/groups/${randomUUID()}/members/${bob.id}`, { caller: owner })).status, 404);

  const refused = await app.request('DELETE', `/api/v1/groups/${group.id}`, { caller: owner });
  t.is(refused.status, 409);
  t.like(refused.body, { users: 2 });
  t.is((await app.request('DELETE', `/api/v1/groups/${group.id}/members/${bob.id}`, { caller: owner })).status, 200);
  t.is(
    (await app.request('DELETE', `/api/v1/groups/${group.id}/members/${bob.id}`, { caller: owner })).status,
    404,
    'not a member any more',
  );
  await app.request('PATCH', `/users/${alice.id}`, { caller: owner, body: { group_ids: [] } });
  t.deepEqual((await app.request('GET', `/api/v1/groups/${group.id}`, { caller: owner })).body.data.member_ids, []);

  const renamed = await app.request('PUT', `/api/v1/groups/${group.id}`, {
    caller: owner,
    body: { name: 'Data engineers', permissions: {} },
  });
  t.like(renamed.body.data, { name: 'Data engineers', description: null, permissions: {} });
  t.is((await app.request('DELETE', `/api/v1/groups/${group.id}`, { caller: owner })).status, 200);
  t.deepEqual((await app.request('GET', '/api/v1/groups', { caller: owner })).body.data, []);
});

test('changing roles, groups, overrides and defaults needs iam:admin; reading them needs iam:read', async (t) => {
  const owner = app.newTenant();
  const admin = asUser(owner, (await createUser(owner, { role_id: 'admin' })).id);
  const group = await post(owner, '/api/v1/groups', { name: 'G', permissions: {} });
  const target = await createUser(owner);
  const attempts: [string, string, unknown][] = [
    ['POST', '/api/v1/roles', { name: 'R', permissions: {} }],
    ['POST', '/api/v1/groups', { name: 'G2', permissions: {} }],
    ['PUT', `/api/v1/groups/${group.id}`, { name: 'G', permissions: {} }],
    ['PUT', `/api/v1/groups/${group.id}/members/${target.id}`, undefined],
    ['PUT', `/api/v1/users/${target.id}/permission-overrides`, { permissions: {} }],
    ['PUT', '/api/v1/tenant/permission-defaults', { permissions: {} }],
    ['DELETE', `/users/${target.id}`, undefined],
  ];
  for (const [method, path, body] of attempts)
    t.is((await app.request(method, path, { caller: admin, body })).status, 403, `${method} ${path}`);
  for (const path of [
    '/api/v1/roles',
    '/api/v1/groups',
    `/api/v1/users/${target.id}/permissions`,
    '/api/v1/tenant/permission-defaults',
  ]) {
    t.is((await app.request('GET', path, { caller: admin })).status, 200, path);
  }
});

test('tenant defaults decide for users without a role', async (t) => {
  const owner = app.newTenant();
  const empty = await app.request('GET', '/api/v1/tenant/permission-defaults', { caller: owner });
  t.deepEqual(empty.body.data, { permissions: {}, updated_at: null });
  const caller = asUser(owner, (await createUser(owner, { role_id: null })).id);
  t.is((await app.request('GET', '/notification-channels', { caller })).status, 403, 'no opinion anywhere is deny');
  t.is(
    (
      await app.request('PUT', '/api/v1/tenant/permission-defaults', {
        caller: owner,
        body: { permissions: { 'channel:read': 'allow' } },
      })
    ).status,
    400,
  );
  const set = await app.request('PUT', '/api/v1/tenant/permission-defaults', {
    caller: owner,
    body: { permissions: { 'channels:read': 'allow' } },
  });
  t.is(set.status, 200);
  t.deepEqual(set.body.data.permissions, { 'channels:read': 'allow' });
  t.regex(set.body.data.updated_at, /^\d{4}-/);
  t.is((await app.request('GET', '/notification-channels', { caller })).status, 200);
  const explained = await app.request('GET', `/api/v1/users/${caller.userId}/permissions`, { caller: owner });
  t.deepEqual(explained.body.data.allowed, ['channels:read']);
  t.deepEqual(explained.body.data.permissions['channels:read'], {
    allowed: true,
    decided_by: 'tenant_default',
    sources: [],
  });
  t.deepEqual(explained.body.data.permissions['iam:read'], { allowed: false, decided_by: 'none', sources: [] });
  t.deepEqual(
    (await app.request('GET', '/api/v1/tenant/permission-defaults', { caller: owner })).body.data,
    set.body.data,
  );
});

test("a principal without a user record takes its role level from the token's roles, custom ones by name", async (t) => {
  const owner = app.newTenant();
  await post(owner, '/api/v1/roles', { name: 'Auditors', permissions: { 'channels:read': 'allow' } });
  const client = { ...app.newTenant(), tenantId: owner.tenantId, roles: ['Auditors'] };
  t.is((await app.request('GET', '/notification-channels', { caller: client })).status, 200);
  t.is((await app.request('GET', '/users', { caller: client })).status, 403);
  t.is((await app.request('GET', '/users', { caller: { ...client, roles: ['viewer'] } })).status, 200);
  t.is((await app.request('GET', '/users', { caller: { ...client, roles: [] } })).status, 403);
});

test('role pages run through the built-in roles and then the custom ones, each once', async (t) => {
  const owner = app.newTenant();
  const custom = [];
  for (let i = 0; i < 3; i++) custom.push((await post(owner, '/api/v1/roles', { name: `R${i}`, permissions: {} })).id);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
    const page = await app.request('GET', `/api/v1/roles${query}`, { caller: owner });
    t.true(page.body.data.length <= 3);
    seen.push(...page.body.data.map((r: { id: string }) => r.id));
    cursor = page.body.page.next_cursor;
  } while (cursor);
  t.deepEqual(seen, ['admin', 'owner', 'responder', 'viewer', ...custom]);
});

test('without a management API, the invitation is an .eml in DATA_DIR/outbox', async (t) => {
  const owner = app.newTenant();
  const address = `mail-${randomUUID().slice(0, 8)}@example.com`;
  const user = await createUser(owner, { email: address, name: 'Olga Outbox' });
  const outbox = join(app.dataDir, 'outbox');
  const mail = readdirSync(outbox)
    .map((name) => readFileSync(join(outbox, name), 'utf8'))
    .find((text) => text.includes(address));
  t.truthy(mail);
  t.regex(mail!, /^To: Olga Outbox <.+>\r$/m);
  const invited = (await app.platform.eventStore.readStream(`user-${user.id}`)).find((e) => e.type === 'UserInvited');
  t.like(invited?.data, { provider: 'outbox' });
});
