import test from 'ava';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { asUser, uniqueAddress } from './support/user-callers.js';

// Issue 25, items 1 and 4: iam:write must not take over a more powerful principal, and removing a
// deny is a grant.
let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const email = uniqueAddress;

async function post(caller: Caller, path: string, body: Record<string, unknown>) {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201)
    throw new Error(`POST ${path} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; email: string };
}

/** A tenant with an owner user, and an attacker whose role allows only iam:read and iam:write. */
async function setting() {
  const root = app.newTenant();
  const writerRole = await post(root, '/api/v1/roles', {
    name: 'IAM clerk',
    permissions: { 'iam:read': 'allow', 'iam:write': 'allow' },
  });
  const owner = await post(root, '/api/v1/users', {
    email: email('owner'),
    name: 'Owner',
    role_id: 'owner',
    group_ids: [],
    phone: '+447700900123',
  });
  const attacker = await post(root, '/api/v1/users', {
    email: email('clerk'),
    name: 'Clerk',
    role_id: writerRole.id,
    group_ids: [],
  });
  return { root, owner, writerRole, attacker: asUser(root, attacker.id), attackerId: attacker.id };
}

const view = async (caller: Caller, id: string) => {
  const response = await app.request('GET', `/api/v1/users/${id}`, { caller });
  return { data: response.body.data, etag: response.headers.get('etag') };
};

test("iam:write cannot change an owner's email, phone, role or active state, nor invite it; nothing changes", async (t) => {
  const { root, owner, attacker } = await setting();
  const before = await view(root, owner.id);
  const attempts: [string, string, Record<string, unknown> | undefined, RegExp][] = [
    [
      'PATCH',
      `/api/v1/users/${owner.id}`,
      { email: 'attacker@evil.test' },
      /changing email of a user who holds permissions you do not hold/,
    ],
    ['PATCH', `/users/${owner.id}`, { email: 'attacker@evil.test' }, /email/],
    ['POST', `/api/v1/users/${owner.id}/invite`, undefined, /invitation/],
    ['POST', `/users/${owner.id}/invite`, undefined, /invitation/],
    ['PATCH', `/api/v1/users/${owner.id}`, { role_id: 'viewer' }, /role_id/],
    ['PATCH', `/api/v1/users/${owner.id}`, { is_active: false }, /is_active/],
    ['PATCH', `/api/v1/users/${owner.id}`, { phone: '+15555550100' }, /phone/],
    [
      'PUT',
      `/api/v1/users/${owner.id}`,
      { email: 'attacker@evil.test', name: 'Owner', role_id: 'owner', group_ids: [], phone: '+447700900123' },
      /email/,
    ],
  ];
  for (const [method, path, body, detail] of attempts) {
    const response = await app.request(method, path, { caller: attacker, body });
    t.is(response.status, 403, `${method} ${path} ${JSON.stringify(body)}`);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.regex(response.body.detail, detail);
  }
  t.deepEqual(
    await view(root, owner.id),
    before,
    'the owner is exactly as it was (same revision, same invitation status)',
  );
  const taken = await app.request('GET', `/api/v1/users?email=attacker@evil.test`, { caller: root });
  t.deepEqual(taken.body.data, [], 'the address was not reserved either');
});

test("iam:write may still rename an owner, change its own profile, and change a peer's email", async (t) => {
  const { root, owner, writerRole, attacker, attackerId } = await setting();
  t.is(
    (await app.request('PATCH', `/api/v1/users/${owner.id}`, { caller: attacker, body: { name: 'The owner' } })).status,
    200,
  );
  const current = (await view(root, owner.id)).data;
  const put = await app.request('PUT', `/api/v1/users/${owner.id}`, {
    caller: attacker,
    body: { email: current.email, name: 'Owner again', role_id: 'owner', group_ids: [], phone: current.phone },
  });
  t.is(put.status, 200, 'a PUT resending the protected fields unchanged is a rename');
  t.is(
    (
      await app.request('PATCH', `/api/v1/users/${attackerId}`, {
        caller: attacker,
        body: { name: 'Me', email: email('me'), phone: '+15555550100' },
      })
    ).status,
    200,
  );
  const peer = await post(root, '/api/v1/users', {
    email: email('peer'),
    name: 'Peer',
    role_id: writerRole.id,
    group_ids: [],
  });
  t.is(
    (await app.request('PATCH', `/api/v1/users/${peer.id}`, { caller: attacker, body: { email: email('peer2') } }))
      .status,
    200,
  );
  t.is(
    (await app.request('PATCH', `/api/v1/users/${owner.id}`, { caller: root, body: { email: email('owner2') } }))
      .status,
    200,
    'an owner (iam:admin) may',
  );
});

test('removing a deny is a grant: leaving a group that denied alerts:write needs alerts:write (itself or another user)', async (t) => {
  const root = app.newTenant();
  const clerkRole = await post(root, '/api/v1/roles', {
    name: 'Clerk',
    permissions: { 'iam:read': 'allow', 'iam:write': 'allow', 'alerts:write': 'allow' },
  });
  const noAlerts = await post(root, '/api/v1/groups', { name: 'No alerts', permissions: { 'alerts:write': 'deny' } });
  const clerk = await post(root, '/api/v1/users', {
    email: email('clerk'),
    name: 'Clerk',
    role_id: clerkRole.id,
    group_ids: [noAlerts.id],
  });
  const other = await post(root, '/api/v1/users', {
    email: email('other'),
    name: 'Other',
    role_id: clerkRole.id,
    group_ids: [noAlerts.id],
  });
  const caller = asUser(root, clerk.id);
  const rule = { name: 'r', metric: 'cpu', threshold: 1 };
  t.is(
    (await app.request('POST', '/api/v1/alert-rules', { caller, body: rule })).status,
    403,
    'the group denies alerts:write',
  );

  const self = await app.request('PATCH', `/api/v1/users/${clerk.id}`, { caller, body: { group_ids: [] } });
  t.is(self.status, 403);
  t.regex(self.body.detail, /would grant permissions you do not hold \(alerts:write\)/);
  const forOther = await app.request('PATCH', `/api/v1/users/${other.id}`, { caller, body: { group_ids: [] } });
  t.is(forOther.status, 403);
  t.regex(forOther.body.detail, /\(alerts:write\)/);
  const put = await app.request('PUT', `/api/v1/users/${clerk.id}`, {
    caller,
    body: { email: clerk.email, name: 'Clerk', role_id: clerkRole.id, group_ids: [] },
  });
  t.is(put.status, 403);
  t.deepEqual((await view(root, clerk.id)).data.group_ids, [noAlerts.id]);
  t.deepEqual((await view(root, other.id)).data.group_ids, [noAlerts.id]);
  t.is(
    (await app.request('PATCH', `/api/v1/users/${other.id}`, { caller: root, body: { group_ids: [] } })).status,
    200,
    'iam:admin may',
  );
});

test('a new user is a grant from nothing: what the tenant defaults would give it needs the creator to hold it', async (t) => {
  const root = app.newTenant();
  const clerkRole = await post(root, '/api/v1/roles', {
    name: 'Clerk',
    permissions: { 'iam:read': 'allow', 'iam:write': 'allow', 'alerts:write': 'deny' },
  });
  const clerk = await post(root, '/api/v1/users', {
    email: email('clerk'),
    name: 'Clerk',
    role_id: clerkRole.id,
    group_ids: [],
  });
  t.is(
    (
      await app.request('PUT', '/api/v1/tenant/permission-defaults', {
        caller: root,
        body: { permissions: { 'alerts:write': 'allow' } },
      })
    ).status,
    200,
  );
  const caller = asUser(root, clerk.id);
  const created = await app.request('POST', '/api/v1/users', {
    caller,
    body: { email: email('alter-ego'), name: 'Alter ego', role_id: null },
  });
  t.is(created.status, 403);
  t.regex(created.body.detail, /would grant permissions you do not hold \(alerts:write\)/);
  t.is(
    (
      await app.request('POST', '/api/v1/users', {
        caller,
        body: { email: email('viewer'), name: 'Viewer', role_id: 'viewer' },
      })
    ).status,
    201,
    'a viewer (its role denies alerts:write) is fine',
  );
});
