import test from 'ava';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startManagementStandIn, type ManagementStandIn } from './support/idp-management-standin.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { asUser } from './support/user-callers.js';

let app: TestApp;
let idp: ManagementStandIn;
test.before(async () => {
  idp = await startManagementStandIn();
  app = await startTestApp({
    env: { IDP_MANAGEMENT_URL: idp.url, IDP_CLIENT_ID: idp.clientId, IDP_CLIENT_SECRET: idp.clientSecret },
  });
});
test.after.always(async () => {
  await app?.close();
  await idp?.stop();
});

let counter = 0;
const uniqueEmail = (prefix = 'user') => `${prefix}-${++counter}-${randomUUID().slice(0, 6)}@example.com`;
const streamTypes = async (id: string) => (await app.platform.eventStore.readStream(`user-${id}`)).map((e) => e.type);

async function createUser(owner: Caller, body: Record<string, unknown> = {}) {
  const response = await app.request('POST', '/users', {
    caller: owner,
    body: { email: uniqueEmail(), name: 'Someone', role_id: 'viewer', group_ids: [], ...body },
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; email: string; [field: string]: unknown };
}

test('owner creates a viewer; overrides and groups change its access from the very next request', async (t) => {
  const owner = app.newTenant();
  const created = await app.request('POST', '/users', {
    caller: owner,
    body: { email: uniqueEmail('viewer'), name: 'Vera Viewer', role_id: 'viewer', group_ids: [] },
  });
  t.is(created.status, 201);
  const viewer = asUser(owner, created.body.data.id);
  t.is(created.headers.get('location'), `/users/${viewer.userId}`);

  const newUser = () => ({ email: uniqueEmail(), name: 'New', role_id: 'viewer', group_ids: [] });
  t.is((await app.request('GET', '/users', { caller: viewer })).status, 200, 'a viewer lists users');
  const refused = await app.request('POST', '/users', { caller: viewer, body: newUser() });
  t.is(refused.status, 403);
  t.is(refused.body.detail, 'this operation requires the permission iam:write');

  t.is(
    (
      await app.request('PUT', `/api/v1/users/${viewer.userId}/permission-overrides`, {
        caller: owner,
        body: { permissions: { 'iam:write': 'allow' } },
      })
    ).status,
    200,
  );
  t.is(
    (await app.request('POST', '/users', { caller: viewer, body: newUser() })).status,
    201,
    'the override lets it create',
  );

  const group = await app.request('POST', '/api/v1/groups', {
    caller: owner,
    body: { name: 'Locked out', permissions: { 'iam:read': 'deny', 'iam:write': 'deny' } },
  });
  t.is(group.status, 201);
  t.is(
    (await app.request('PUT', `/api/v1/groups/${group.body.data.id}/members/${viewer.userId}`, { caller: owner }))
      .status,
    200,
  );
  t.is(
    (await app.request('POST', '/users', { caller: viewer, body: newUser() })).status,
    201,
    'the group deny of iam:write does not beat the override',
  );
  t.is(
    (await app.request('GET', '/users', { caller: viewer })).status,
    403,
    'without an override, the group deny of iam:read beats the role',
  );

  await app.request('PUT', `/api/v1/users/${viewer.userId}/permission-overrides`, {
    caller: owner,
    body: { permissions: { 'iam:write': 'allow', 'iam:read': 'allow' } },
  });
  t.is(
    (await app.request('GET', '/users', { caller: viewer })).status,
    200,
    'a group denying iam:read does not beat an override allowing it',
  );
  const explained = await app.request('GET', `/api/v1/users/${viewer.userId}/permissions`, { caller: owner });
  t.like(explained.body.data.permissions['iam:read'], { allowed: true, decided_by: 'user_override' });
  t.like(explained.body.data.permissions['channels:read'], { allowed: true, decided_by: 'role', sources: ['viewer'] });

  t.is(
    (await app.request('DELETE', `/api/v1/groups/${group.body.data.id}/members/${viewer.userId}`, { caller: owner }))
      .status,
    200,
  );
  t.is(
    (
      await app.request('PUT', `/api/v1/users/${viewer.userId}/permission-overrides`, {
        caller: owner,
        body: { permissions: {} },
      })
    ).status,
    200,
  );
  t.is(
    (await app.request('POST', '/users', { caller: viewer, body: newUser() })).status,
    403,
    "removing the override restores the role's answer at once",
  );
  t.is((await app.request('GET', '/users', { caller: viewer })).status, 200);
  const after = await app.request('GET', `/api/v1/users/${viewer.userId}/permissions`, { caller: owner });
  t.like(after.body.data.permissions['iam:write'], { allowed: false, decided_by: 'role', sources: ['viewer'] });
  t.deepEqual(
    (await app.request('GET', `/api/v1/users/${viewer.userId}/permission-overrides`, { caller: owner })).body.data,
    { user_id: viewer.userId, permissions: {} },
  );
});

test('a duplicate email in any case is 409, and nothing is created', async (t) => {
  const owner = app.newTenant();
  await createUser(owner, { email: 'Ada.Lovelace@Example.com' });
  for (const email of ['ada.lovelace@example.com', 'ADA.LOVELACE@EXAMPLE.COM', '  Ada.Lovelace@example.COM ']) {
    const duplicate = await app.request('POST', '/users', {
      caller: owner,
      body: { email, name: 'Ada again', role_id: 'viewer', group_ids: [] },
    });
    t.is(duplicate.status, 409, email);
    t.regex(duplicate.body.detail, /already exists/);
    t.deepEqual(
      duplicate.body.errors,
      [{ path: '/email', message: 'another user of the tenant has this address' }],
      'the refusal names the field',
    );
  }
  t.is((await app.request('GET', '/users', { caller: owner })).body.data.length, 1);
  t.is(
    (
      await app.request('POST', '/users', {
        caller: app.newTenant(),
        body: { email: 'ada.lovelace@example.com', name: 'Other tenant', role_id: 'viewer' },
      })
    ).status,
    201,
    'unique per tenant only',
  );
});

test('20 concurrent creates of one address (in different cases): exactly one wins', async (t) => {
  const owner = app.newTenant();
  const local = `race-${randomUUID().slice(0, 8)}`;
  const variants = Array.from(
    { length: 20 },
    (_, i) => `${i % 2 ? local.toUpperCase() : local}@${i % 3 ? 'example.com' : 'EXAMPLE.com'}`,
  );
  const responses = await Promise.all(
    variants.map((email, i) =>
      app.request('POST', '/users', {
        caller: owner,
        body: { email, name: `Racer ${i}`, role_id: 'viewer', group_ids: [] },
      }),
    ),
  );
  t.deepEqual(responses.map((r) => r.status).sort(), [201, ...Array(19).fill(409)]);
  const listed = await app.request('GET', `/users?email=${local}@example.com`, { caller: owner });
  t.is(listed.body.data.length, 1);
  t.is(listed.body.data[0].id, responses.find((r) => r.status === 201)!.body.data.id);
});

test('after DELETE the user is gone from lists, groups and reads, its token is 403 everywhere, and its history remains', async (t) => {
  const owner = app.newTenant();
  const group = (
    await app.request('POST', '/api/v1/groups', { caller: owner, body: { name: 'On call', permissions: {} } })
  ).body.data;
  const user = await createUser(owner, { role_id: 'admin', group_ids: [group.id] });
  const token = app.token(asUser(owner, user.id, { roles: ['owner'] }));
  t.is((await app.request('GET', '/notification-channels', { token })).status, 200);

  const deleted = await app.request('DELETE', `/users/${user.id}`, { caller: owner });
  t.is(deleted.status, 200);
  t.deepEqual(deleted.body.data, { id: user.id, deleted: true });
  t.deepEqual((await app.request('GET', '/users', { caller: owner })).body.data, []);
  t.deepEqual((await app.request('GET', `/users?group_id=${group.id}`, { caller: owner })).body.data, []);
  t.deepEqual((await app.request('GET', `/api/v1/groups/${group.id}`, { caller: owner })).body.data.member_ids, []);
  t.is((await app.request('GET', `/users/${user.id}`, { caller: owner })).status, 404);
  t.is((await app.request('DELETE', `/users/${user.id}`, { caller: owner })).status, 404);
  for (const [method, path] of [
    ['GET', '/users'],
    ['GET', '/api/v1/notification-channels'],
    ['POST', '/notification-channels'],
    ['GET', '/api/v1/roles'],
    ['GET', '/no-such-route'],
  ]) {
    const refused = await app.request(method!, path!, { token, body: method === 'POST' ? {} : undefined });
    t.is(refused.status, 403, `${method} ${path} for a removed user even with roles: ["owner"] in its token`);
  }
  t.deepEqual(await streamTypes(user.id), [
    'UserCreated',
    'UserInvited',
    'UserLoggedIn',
    'UserDeactivated',
    'UserRemoved',
  ]);
  t.is(
    (await app.request('DELETE', `/api/v1/groups/${group.id}`, { caller: owner })).status,
    200,
    'the group has no members left',
  );
  t.is(
    (
      await app.request('POST', '/users', {
        caller: owner,
        body: { email: user.email.toUpperCase(), name: 'Reused', role_id: 'viewer' },
      })
    ).status,
    201,
    'the address can be used again',
  );
});

test('is_active false deactivates without removing; its tokens are 403 until it is reactivated', async (t) => {
  const owner = app.newTenant();
  const user = await createUser(owner, { role_id: 'viewer' });
  const caller = asUser(owner, user.id);
  const patched = await app.request('PATCH', `/users/${user.id}`, { caller: owner, body: { is_active: false } });
  t.is(patched.status, 200);
  t.like(patched.body.data, { id: user.id, is_active: false, name: 'Someone' });
  t.is((await app.request('GET', '/users', { caller })).status, 403);
  t.deepEqual(
    (await app.request('GET', '/users?is_active=false', { caller: owner })).body.data.map((u: { id: string }) => u.id),
    [user.id],
  );
  t.deepEqual((await app.request('GET', '/users?is_active=true', { caller: owner })).body.data, []);
  t.is((await app.request('PATCH', `/users/${user.id}`, { caller: owner, body: { is_active: true } })).status, 200);
  t.is((await app.request('GET', '/users', { caller })).status, 200);
  t.deepEqual((await streamTypes(user.id)).slice(-2), ['UserReactivated', 'UserLoggedIn']);
});

test('the invitation goes through the management API and is recorded as UserInvited', async (t) => {
  const owner = app.newTenant();
  const email = uniqueEmail('invited');
  const user = await createUser(owner, { email, name: 'Ivy Invited' });
  t.is(user.invitation_status, 'sent');
  const providerUser = idp.databaseUser(email)!;
  t.like(providerUser, { email, name: 'Ivy Invited', app_metadata: { tenant_id: owner.tenantId, user_id: user.id } });
  const invited = (await app.platform.eventStore.readStream(`user-${user.id}`)).find((e) => e.type === 'UserInvited')!;
  t.deepEqual(invited.data, { userId: user.id, provider: 'management-api', reference: providerUser.user_id });
  const ticket = idp.tickets.find((x) => x.user_id === providerUser.user_id)!;
  const outbox = join(app.dataDir, 'outbox');
  // The bodies are quoted-printable (RFC 2045): undo soft line breaks and =XX escapes.
  const decoded = (mail: string) =>
    mail.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const mails = readdirSync(outbox).map((name) => decoded(readFileSync(join(outbox, name), 'utf8')));
  t.true(
    mails.some((mail) => mail.includes(email) && mail.includes(ticket.ticket)),
    'the ticket was sent to the invitee',
  );
});

test.serial(
  'a failing provider leaves the user created with a failed invitation that POST .../invite retries',
  async (t) => {
    const owner = app.newTenant();
    idp.failWith('ticket', 503, 'Service temporarily unavailable');
    t.teardown(() => idp.heal());
    const user = await createUser(owner, { name: 'Fay Failed' });
    t.is(user.invitation_status, 'failed');
    t.is((await app.request('GET', `/users/${user.id}`, { caller: owner })).body.data.invitation_status, 'failed');
    const failed = (await app.platform.eventStore.readStream(`user-${user.id}`)).find(
      (e) => e.type === 'UserInvitationFailed',
    )!;
    t.deepEqual(failed.data, {
      userId: user.id,
      provider: 'management-api',
      error: 'ticket: the identity provider answered 503: Service temporarily unavailable',
    });

    const stillFailing = await app.request('POST', `/users/${user.id}/invite`, { caller: owner });
    t.is(stillFailing.status, 503);
    t.like(stillFailing.body, { invitation_status: 'failed' });
    t.regex(stillFailing.body.detail, /Service temporarily unavailable/);

    idp.heal();
    const retried = await app.request('POST', `/api/v1/users/${user.id}/invite`, { caller: owner });
    t.is(retried.status, 200);
    t.is(retried.body.data.invitation_status, 'sent');
    t.deepEqual(await streamTypes(user.id), [
      'UserCreated',
      'UserInvitationFailed',
      'UserInvitationFailed',
      'UserInvited',
    ]);
  },
);

test('inviting a deactivated user is 409; an unknown user is 404; it needs iam:write', async (t) => {
  const owner = app.newTenant();
  const user = await createUser(owner, { is_active: false });
  t.is(user.invitation_status, 'pending', 'an inactive user is not invited at creation');
  t.is((await app.request('POST', `/users/${user.id}/invite`, { caller: owner })).status, 409);
  t.is((await app.request('POST', `/users/${randomUUID()}/invite`, { caller: owner })).status, 404);
  const viewer = await createUser(owner);
  t.is((await app.request('POST', `/users/${user.id}/invite`, { caller: asUser(owner, viewer.id) })).status, 403);
});

test('last_login is the first request with each newly issued token: one event per token', async (t) => {
  const owner = app.newTenant();
  const user = await createUser(owner);
  t.is(user.last_login, null);
  const issuedAt = Math.floor(Date.now() / 1000) - 30;
  const first = app.token(asUser(owner, user.id, { iat: issuedAt }));
  for (let i = 0; i < 3; i++) t.is((await app.request('GET', '/users', { token: first })).status, 200);
  const afterFirst = (await app.request('GET', `/users/${user.id}`, { caller: owner })).body.data.last_login;
  t.regex(afterFirst, /^\d{4}-\d\d-\d\dT/);
  const second = app.token(asUser(owner, user.id, { iat: issuedAt + 10 }));
  await app.request('GET', '/users', { token: second });
  await app.request('GET', '/users', { token: second });
  await app.request('GET', '/users', { token: first });
  const logins = (await app.platform.eventStore.readStream(`user-${user.id}`)).filter((e) => e.type === 'UserLoggedIn');
  t.deepEqual(
    logins.map((e) => e.data.tokenIssuedAt),
    [issuedAt, issuedAt + 10],
  );
  t.is((await app.request('GET', `/users/${user.id}`, { caller: owner })).body.data.last_login, logins[1]!.data.at);
});

test('a user may have a phone number for sms pages: E.164 or null', async (t) => {
  const owner = app.newTenant();
  const created = await app.request('POST', '/users', {
    caller: owner,
    body: { email: `p-${Date.now()}@example.com`, name: 'Pat', phone: '+447700900123' },
  });
  t.is(created.status, 201);
  t.is(created.body.data.phone, '+447700900123');
  const bad = await app.request('PATCH', `/users/${created.body.data.id}`, {
    caller: owner,
    body: { phone: '07700 900123' },
  });
  t.is(bad.status, 400);
  t.deepEqual(
    bad.body.errors.map((e: { path: string }) => e.path),
    ['/phone'],
  );
  const cleared = await app.request('PATCH', `/users/${created.body.data.id}`, {
    caller: owner,
    body: { phone: null },
  });
  t.is(cleared.body.data.phone, null);
});
