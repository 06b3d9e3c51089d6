/**
 * GET /api/v1/user-names: any user of the tenant reads its users' display names (the dashboard
 * shows who acted), also without iam:read; names only, and only the token's own tenant.
 */
import test from 'ava';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const createUser = async (owner: Caller, email: string, name: string, roleId: string) => {
  const created = await app.request('POST', '/users', {
    caller: owner,
    body: { email, name, role_id: roleId, group_ids: [] },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.data as { id: string };
};

test("a user without iam:read reads the names of its tenant's users, and nothing else of them", async (t) => {
  const owner = app.newTenant();
  const role = await app.request('POST', '/api/v1/roles', {
    caller: owner,
    body: { name: 'pager only', permissions: { 'incidents:read': 'allow', 'incidents:write': 'allow' } },
  });
  t.is(role.status, 201);
  const ada = await createUser(owner, 'ada@example.com', 'Ada Oncall', role.body.data.id);
  const bob = await createUser(owner, 'bob@example.com', 'Bob Left', 'viewer');
  t.is((await app.request('DELETE', `/users/${bob.id}`, { caller: owner })).status, 200);
  const other = app.newTenant();
  await createUser(other, 'eve@example.com', 'Eve Elsewhere', 'viewer');

  const adaCaller = { tenantId: owner.tenantId, envId: owner.envId, userId: ada.id };
  t.is((await app.request('GET', '/api/v1/users', { caller: adaCaller })).status, 403, 'the user list needs iam:read');
  const names = await app.request('GET', '/api/v1/user-names', { caller: adaCaller });
  t.is(names.status, 200);
  t.deepEqual(
    names.body.data,
    [
      { id: ada.id, name: 'Ada Oncall', removed: false },
      { id: bob.id, name: 'Bob Left', removed: true },
    ],
    'its tenant only, oldest first, a removed user flagged; no email, phone or role',
  );
});

test('the names read takes no parameters and needs a token', async (t) => {
  const owner = app.newTenant();
  t.is((await app.request('GET', '/api/v1/user-names?tenant_id=x', { caller: owner })).status, 400);
  t.is((await app.request('GET', '/api/v1/user-names')).status, 401);
  t.deepEqual(
    (await app.request('GET', '/api/v1/user-names', { caller: owner })).body.data,
    [],
    'a fresh tenant has no users yet',
  );
});
