/**
 * Role and group names are unique per tenant (ignoring case and Unicode compatibility forms), and
 * a token's roles claim resolves names only: neither a duplicate name nor a UUID-shaped name can
 * take over another role's privileges.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { nameReservationStream } from '../src/events/grant-holder-names.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const create = (owner: Caller, kind: 'roles' | 'groups', name: string, permissions: Record<string, string> = {}) =>
  app.request('POST', `/api/v1/${kind}`, { caller: owner, body: { name, permissions } });
/** A service client of the owner's tenant (no user record): its roles claim is its role level. */
const client = (owner: Caller, roles: string[]): Caller => ({
  tenantId: owner.tenantId,
  envId: owner.envId,
  userId: randomUUID(),
  roles,
});

for (const kind of ['roles', 'groups'] as const) {
  test(`ten concurrent creates of one ${kind.slice(0, -1)} name: exactly one 201, the others 409`, async (t) => {
    const owner = app.newTenant();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(owner, kind, i % 2 ? 'OnCall' : 'oncall')),
    );
    t.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) t.regex(refused.body.detail, /already exists/);
    const listed = (await app.request('GET', `/api/v1/${kind}?limit=50`, { caller: owner })).body.data as {
      name: string;
      built_in?: boolean;
    }[];
    t.is(listed.filter((item) => !item.built_in).length, 1);
  });
}

test('a second "oncall" role with iam:admin is refused, so a token naming "oncall" does not become admin', async (t) => {
  const owner = app.newTenant();
  t.is((await create(owner, 'roles', 'oncall', { 'incidents:read': 'allow' })).status, 201);
  for (const name of ['oncall', 'ONCALL', 'ｏｎｃａｌｌ', 'on\u200bcall']) {
    const second = await create(owner, 'roles', name, { 'iam:admin': 'allow', 'iam:read': 'allow' });
    t.is(second.status, 409, name);
  }
  const oncall = client(owner, ['oncall']);
  t.is((await app.request('GET', '/users', { caller: oncall })).status, 403);
  t.is((await app.request('GET', '/api/v1/incidents', { caller: oncall })).status, 200);
});

test('a rename frees the old name and takes the new one; a deletion frees the name', async (t) => {
  const owner = app.newTenant();
  const alpha = (await create(owner, 'roles', 'alpha')).body.data;
  const other = (await create(owner, 'roles', 'other')).body.data;
  t.is(
    (await app.request('PUT', `/api/v1/roles/${other.id}`, { caller: owner, body: { name: 'Alpha', permissions: {} } }))
      .status,
    409,
    'taken',
  );
  t.is(
    (await app.request('PUT', `/api/v1/roles/${alpha.id}`, { caller: owner, body: { name: 'ALPHA', permissions: {} } }))
      .status,
    200,
    'its own name in another case',
  );
  t.is(
    (await app.request('PUT', `/api/v1/roles/${alpha.id}`, { caller: owner, body: { name: 'beta', permissions: {} } }))
      .status,
    200,
  );
  t.is((await create(owner, 'roles', 'alpha')).status, 201, 'the old name is free');
  t.is((await create(owner, 'roles', 'Beta')).status, 409, 'the new name is taken');
  t.is((await app.request('DELETE', `/api/v1/roles/${alpha.id}`, { caller: owner })).status, 200);
  t.is((await create(owner, 'roles', 'beta')).status, 201, 'a deleted role gives its name back');
});

test('group names: unique, freed by deletion, and separate from role names', async (t) => {
  const owner = app.newTenant();
  const group = (await create(owner, 'groups', 'DBAs')).body.data;
  t.is((await create(owner, 'groups', 'dbas')).status, 409);
  t.is((await create(owner, 'roles', 'DBAs')).status, 201, 'a role may share a group name');
  t.is((await app.request('DELETE', `/api/v1/groups/${group.id}`, { caller: owner })).status, 200);
  t.is((await create(owner, 'groups', 'dbas')).status, 201);
});

test('a custom role may not take a built-in name in any case', async (t) => {
  const owner = app.newTenant();
  for (const name of ['Owner', 'ADMIN']) {
    const refused = await create(owner, 'roles', name, { 'iam:admin': 'allow' });
    t.is(refused.status, 409, name);
    t.regex(refused.body.detail, /built-in role/);
  }
});

test("a role named with another role's id is 400, and a token naming a role's id gets nothing", async (t) => {
  const owner = app.newTenant();
  const auditors = (await create(owner, 'roles', 'Auditors', { 'channels:read': 'allow' })).body.data;
  const takeover = await create(owner, 'roles', auditors.id, { 'iam:admin': 'allow', 'iam:read': 'allow' });
  t.is(takeover.status, 400);
  t.deepEqual(
    takeover.body.errors.map((e: { path: string }) => e.path),
    ['/name'],
  );
  t.is(
    (
      await app.request('PUT', `/api/v1/roles/${auditors.id}`, {
        caller: owner,
        body: { name: randomUUID(), permissions: {} },
      })
    ).status,
    400,
  );
  t.is(
    (await app.request('GET', '/notification-channels', { caller: client(owner, [auditors.id]) })).status,
    403,
    'ids are not names',
  );
  t.is(
    (await app.request('GET', '/notification-channels', { caller: client(owner, ['Auditors']) })).status,
    200,
    'the name works',
  );
});

test('unknown names in the roles claim are ignored; the known ones still count', async (t) => {
  const owner = app.newTenant();
  t.is((await app.request('GET', '/users', { caller: client(owner, ['no-such-role', 'viewer']) })).status, 200);
  t.is((await app.request('GET', '/users', { caller: client(owner, ['no-such-role']) })).status, 403);
});

test('a refused create or rename leaves no reservation behind', async (t) => {
  const owner = app.newTenant();
  const role = (await create(owner, 'roles', 'kept')).body.data;
  t.is(
    (
      await app.request('PUT', `/api/v1/roles/${role.id}`, {
        caller: owner,
        body: { name: 'stale', permissions: {} },
        headers: { 'if-match': '"7"' },
      })
    ).status,
    409,
  );
  t.is(
    (await app.request('PUT', `/api/v1/roles/${role.id}`, { caller: owner, body: { name: 'Viewer', permissions: {} } }))
      .status,
    409,
  );
  t.is((await create(owner, 'roles', 'Viewer')).status, 409);
  for (const name of ['stale', 'Viewer']) {
    t.deepEqual(
      await app.platform.eventStore.readStream(nameReservationStream('role', owner.tenantId, name)),
      [],
      name,
    );
  }
});
