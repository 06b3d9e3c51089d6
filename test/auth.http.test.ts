import test from 'ava';
import jwt from 'jsonwebtoken';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TEST_AUDIENCE } from './support/jwks-server.js';

let app: TestApp;
/**
 * The platform's clock runs ahead of real time by this much. A key id missing from the key set is
 * called unknown only after a fresh look at the JWKS, which happens at most every 30 s: tokens
 * naming unknown keys move the clock past that interval first, in serial tests (the clock is shared).
 */
let clockAheadMs = 0;
const pastKeyRefreshInterval = () => void (clockAheadMs += 31_000);
test.before(async () => {
  app = await startTestApp({ now: () => new Date(Date.now() + clockAheadMs) });
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

const REALM = `realm="${TEST_AUDIENCE}"`;
const invalid = (description: RegExp) =>
  new RegExp(`^Bearer ${REALM}, error="invalid_token", error_description="${description.source}"$`);

/** Each refused token: its 401 challenge names the check that failed (RFC 6750 3). */
const rejected: [string, (app: TestApp) => string | undefined, RegExp][] = [
  [
    'a token for another audience',
    (a) => a.token(a.newTenant(), { audience: 'https://someone-else.example' }),
    invalid(/the token's audience \(aud\) is not http:\/\/platform\.test/),
  ],
  [
    'a token from another issuer',
    (a) => a.token(a.newTenant(), { issuer: 'https://evil.example/' }),
    invalid(/the token's issuer \(iss\) is not https:\/\/idp\.test\//),
  ],
  [
    'an expired token',
    (a) => a.token(a.newTenant(), { expiresInSeconds: -60 }),
    invalid(/the token has expired \(exp\)/),
  ],
  [
    'an unsigned token (alg none)',
    (a) => {
      const c = a.newTenant();
      return unsigned({
        sub: 'x',
        tenant_id: c.tenantId,
        user_id: c.userId,
        env_id: c.envId,
        roles: ['owner'],
        aud: TEST_AUDIENCE,
        iss: 'https://idp.test/',
        exp: Math.floor(Date.now() / 1000) + 600,
      });
    },
    invalid(/only RS256 tokens are accepted/),
  ],
  [
    'an HS256 token',
    (a) => {
      const c = a.newTenant();
      return jwt.sign(
        { tenant_id: c.tenantId, user_id: c.userId, env_id: c.envId, roles: ['owner'] },
        'shared-secret',
        { algorithm: 'HS256', audience: TEST_AUDIENCE, issuer: 'https://idp.test/', subject: 'x', keyid: 'test-key' },
      );
    },
    invalid(/only RS256 tokens are accepted/),
  ],
  [
    'a token naming an unknown key',
    (a) => a.token(a.newTenant(), { kid: 'no-such-key' }),
    invalid(/the token's signing key \(kid\) is not published by the identity provider/),
  ],
  [
    'a token naming no key',
    (a) => a.token(a.newTenant(), { kid: null }),
    invalid(/the token names no signing key \(kid\)/),
  ],
  [
    'a token signed by a key the provider does not publish',
    (a) => a.token(a.newTenant(), { foreignKey: true }),
    invalid(/the token's signature does not verify against the identity provider's keys/),
  ],
  [
    'a token with a critical header extension (crit)',
    (a) =>
      a.token(a.newTenant(), {
        header: { crit: ['urn:example:must-understand'], 'urn:example:must-understand': true },
      }),
    invalid(/the token marks header extensions critical \(crit\) that this service does not understand/),
  ],
  ['a token with an empty crit list', (a) => a.token(a.newTenant(), { header: { crit: [] } }), invalid(/.*\(crit\).*/)],
  [
    'a token without tenant_id',
    (a) => a.idp.sign({ user_id: a.newTenant().userId, env_id: a.newTenant().envId, roles: ['owner'] }),
    invalid(/the token's claims are invalid or missing: tenant_id/),
  ],
  [
    'a token without user_id',
    (a) => a.idp.sign({ tenant_id: a.newTenant().tenantId, env_id: a.newTenant().envId, roles: ['owner'] }),
    invalid(/the token's claims are invalid or missing: user_id/),
  ],
  [
    'a token without env_id',
    (a) => a.idp.sign({ tenant_id: a.newTenant().tenantId, user_id: a.newTenant().userId, roles: ['owner'] }),
    invalid(/the token's claims are invalid or missing: env_id/),
  ],
  ['a garbage bearer value', () => 'not-a-jwt', invalid(/the token is not a well-formed signed JWT/)],
  [
    'a token with a quote and a backslash in its key id',
    (a) => a.token(a.newTenant(), { kid: 'x", error="none\\' }),
    invalid(/the token's signing key \(kid\) is not published by the identity provider/),
  ],
];

for (const [title, makeToken, challenge] of rejected) {
  const namesUnknownKey = challenge.source.includes('is not published');
  (namesUnknownKey ? test.serial : test)(
    `401 for ${title}, naming the failed check without echoing the token`,
    async (t) => {
      if (namesUnknownKey) pastKeyRefreshInterval();
      const token = makeToken(app)!;
      const response = await app.request('GET', '/api/v1/notification-channels', { token });
      t.is(response.status, 401);
      t.is(response.headers.get('content-type'), 'application/problem+json');
      t.like(response.body, { status: 401, title: 'Unauthorized' });
      const header = response.headers.get('www-authenticate')!;
      t.regex(header, challenge);
      t.is(
        `error_description="${response.body.detail}"`,
        header.slice(header.indexOf('error_description=')),
        'the body says the same',
      );
      for (const part of token.split('.').filter((p) => p.length > 8)) {
        t.false(
          header.includes(part) || JSON.stringify(response.body).includes(part),
          'no part of the token is echoed',
        );
      }
    },
  );
}

for (const [title, authorization] of [
  ['no Authorization header', undefined],
  ['another scheme (Basic)', 'Basic dXNlcjpwYXNz'],
] as const) {
  test(`401 with the bare challenge (no error code) for ${title}`, async (t) => {
    const response = await app.request('GET', '/api/v1/notification-channels', {
      headers: authorization ? { authorization } : {},
    });
    t.is(response.status, 401);
    t.is(response.headers.get('www-authenticate'), `Bearer ${REALM}`);
    t.like(response.body, { status: 401, detail: 'a bearer token is required (Authorization: Bearer <token>)' });
  });
}

test('a token with crit is refused even though its signature and claims are valid', async (t) => {
  const caller = app.newTenant();
  t.is(
    (await app.request('GET', '/api/v1/notification-channels', { token: app.token(caller) })).status,
    200,
    'the same token without crit passes',
  );
  t.is(
    (
      await app.request('GET', '/api/v1/notification-channels', {
        token: app.token(caller, { header: { crit: ['exp'] } }),
      })
    ).status,
    401,
  );
});

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
