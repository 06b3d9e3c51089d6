import test from 'ava';
import jwt from 'jsonwebtoken';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TEST_AUDIENCE } from './support/jwks-server.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const unsigned = (claims: object) =>
  `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;

test('a valid token from the configured provider is accepted', async (t) => {
  const caller = app.newTenant();
  const response = await app.request('GET', '/api/v1/notification-channels', { caller });
  t.is(response.status, 200);
  t.deepEqual(response.body, { success: true, data: [], page: { limit: 50, next_cursor: null } });
});

const rejected: [string, (app: TestApp) => string | undefined][] = [
  ['no token at all', () => undefined],
  ['a token for another audience', (a) => a.token(a.newTenant(), { audience: 'https://someone-else.example' })],
  ['a token from another issuer', (a) => a.token(a.newTenant(), { issuer: 'https://evil.example/' })],
  ['an expired token', (a) => a.token(a.newTenant(), { expiresInSeconds: -60 })],
  ['an unsigned token (alg none)', (a) => {
    const c = a.newTenant();
    return unsigned({ sub: 'x', tenant_id: c.tenantId, user_id: c.userId, env_id: c.envId, roles: ['owner'], aud: TEST_AUDIENCE, iss: 'https://idp.test/', exp: Math.floor(Date.now() / 1000) + 600 });
  }],
  ['an HS256 token', (a) => {
    const c = a.newTenant();
    return jwt.sign({ tenant_id: c.tenantId, user_id: c.userId, env_id: c.envId, roles: ['owner'] }, 'shared-secret', { algorithm: 'HS256', audience: TEST_AUDIENCE, issuer: 'https://idp.test/', subject: 'x', keyid: 'test-key' });
  }],
  ['a token naming an unknown key', (a) => a.token(a.newTenant(), { kid: 'no-such-key' })],
  ['a token naming no key', (a) => a.token(a.newTenant(), { kid: null })],
  ['a token signed by a key the provider does not publish', (a) => a.token(a.newTenant(), { foreignKey: true })],
  ['a token without tenant_id', (a) => a.idp.sign({ user_id: a.newTenant().userId, env_id: a.newTenant().envId, roles: ['owner'] })],
  ['a token without user_id', (a) => a.idp.sign({ tenant_id: a.newTenant().tenantId, env_id: a.newTenant().envId, roles: ['owner'] })],
  ['a token without env_id', (a) => a.idp.sign({ tenant_id: a.newTenant().tenantId, user_id: a.newTenant().userId, roles: ['owner'] })],
  ['a garbage bearer value', () => 'not-a-jwt'],
];

for (const [title, makeToken] of rejected) {
  test(`401 for ${title}`, async (t) => {
    const token = makeToken(app);
    const response = await app.request('GET', '/api/v1/notification-channels', { token, headers: token ? {} : {} });
    t.is(response.status, 401);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.like(response.body, { status: 401, title: 'Unauthorized' });
    t.is(response.headers.get('www-authenticate'), 'Bearer');
  });
}

test('a valid token without a role that grants the permission is 403', async (t) => {
  const caller = { ...app.newTenant(), roles: ['viewer-of-nothing'] };
  const response = await app.request('GET', '/api/v1/notification-channels', { caller });
  t.is(response.status, 403);
  t.like(response.body, { status: 403, detail: 'this operation requires the permission channels:read' });
});

test.serial('the JWKS is fetched once and then served from the cache', async (t) => {
  const before = app.idp.requests();
  const caller = app.newTenant();
  for (let i = 0; i < 5; i++) await app.request('GET', '/api/v1/notification-channels', { caller });
  t.true(app.idp.requests() - before <= 1);
});
