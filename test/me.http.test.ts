/**
 * GET /api/v1/me: the principal and its effective permissions, for a user of the tenant (its
 * record decides) and for the built-in provider's development client (no record: its token roles).
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { ALL_PERMISSIONS } from '../src/access/permissions.js';
import { startPlatform } from '../src/platform.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

test('a user sees its name, email, role and groups, and permissions decided by its record', async (t) => {
  const owner = app.newTenant();
  const group = await app.request('POST', '/api/v1/groups', {
    caller: owner,
    body: { name: 'syncers', permissions: { 'sync:write': 'allow' } },
  });
  t.is(group.status, 201);
  const created = await app.request('POST', '/users', {
    caller: owner,
    body: { email: 'vera@example.com', name: 'Vera Viewer', role_id: 'viewer', group_ids: [group.body.data.id] },
  });
  t.is(created.status, 201);
  const userId = created.body.data.id;
  await app.request('PUT', `/api/v1/users/${userId}/permission-overrides`, {
    caller: owner,
    body: { permissions: { 'audit:read': 'deny' } },
  });

  // The token claims owner: a user's record decides, never the claim.
  const me = await app.request('GET', '/api/v1/me', {
    caller: { tenantId: owner.tenantId, envId: owner.envId, userId, roles: ['owner'] },
  });
  t.is(me.status, 200);
  t.deepEqual(me.body.data.principal, {
    kind: 'user',
    subject: me.body.data.principal.subject,
    user_id: userId,
    tenant_id: owner.tenantId,
    env_id: owner.envId,
    name: 'Vera Viewer',
    email: 'vera@example.com',
    role_id: 'viewer',
    group_ids: [group.body.data.id],
    token_roles: ['owner'],
  });
  const expected = [...ALL_PERMISSIONS.filter((p) => p.endsWith(':read') && p !== 'audit:read'), 'sync:write'].sort();
  t.deepEqual([...me.body.data.allowed].sort(), expected);
  t.deepEqual(me.body.data.permissions['sync:write'], {
    allowed: true,
    decided_by: 'group',
    sources: [group.body.data.id],
  });
  t.deepEqual(me.body.data.permissions['audit:read'], { allowed: false, decided_by: 'user_override', sources: [] });
  t.deepEqual(me.body.data.permissions['incidents:write'], { allowed: false, decided_by: 'role', sources: ['viewer'] });
  t.deepEqual(Object.keys(me.body.data.permissions).sort(), [...ALL_PERMISSIONS].sort());

  // The same answer the guards give: a change applies from the next request.
  await app.request('PUT', `/api/v1/users/${userId}/permission-overrides`, {
    caller: owner,
    body: { permissions: { 'incidents:write': 'allow' } },
  });
  const after = await app.request('GET', '/api/v1/me', {
    caller: { tenantId: owner.tenantId, envId: owner.envId, userId },
  });
  t.true(after.body.data.allowed.includes('incidents:write'));
  t.true(after.body.data.allowed.includes('audit:read'), 'the override that denied it was replaced');
});

test('a principal without a user record is a client whose token roles decide', async (t) => {
  const caller = { ...app.newTenant(), roles: ['responder', 'no-such-role'] };
  const me = await app.request('GET', '/api/v1/me', { caller });
  t.is(me.status, 200);
  t.like(me.body.data.principal, {
    kind: 'client',
    user_id: caller.userId,
    name: null,
    email: null,
    role_id: null,
    group_ids: [],
    token_roles: ['responder', 'no-such-role'],
  });
  t.true(me.body.data.allowed.includes('incidents:write'));
  t.false(me.body.data.allowed.includes('iam:admin'));
  t.deepEqual(me.body.data.permissions['incidents:write'], {
    allowed: true,
    decided_by: 'role',
    sources: ['responder'],
  });
});

test('without a token /me is 401; an unknown query parameter is 400', async (t) => {
  t.is((await app.request('GET', '/api/v1/me')).status, 401);
  const bad = await app.request('GET', '/api/v1/me?verbose=1', { caller: app.newTenant() });
  t.is(bad.status, 400);
  t.is(bad.body.errors[0].path, '/verbose');
});

test('the development client of the built-in identity provider is an owner client of its tenant', async (t) => {
  const base = 'http://localhost:4322';
  const platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: base,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-me-')),
      LOG_LEVEL: 'silent',
    }),
  );
  t.teardown(() => platform.stop());
  const client = platform.devClient!;
  const issued = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: base,
    }),
  });
  const { access_token: token } = (await issued.json()) as { access_token: string };
  const response = await fetch(`${platform.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  t.is(response.status, 200);
  const me = ((await response.json()) as { data: any }).data;
  t.deepEqual(me.principal, {
    kind: 'client',
    subject: `client:${client.client_id}`,
    user_id: client.user_id,
    tenant_id: client.tenant_id,
    env_id: client.env_id,
    name: null,
    email: null,
    role_id: null,
    group_ids: [],
    token_roles: ['owner'],
  });
  t.deepEqual([...me.allowed].sort(), [...ALL_PERMISSIONS].sort());
  t.deepEqual(me.permissions['iam:admin'], { allowed: true, decided_by: 'role', sources: ['owner'] });
});
