/**
 * The authentication middleware alone, in a small Koa app: why a token was refused is logged at
 * debug level (never the token), and an identity provider whose keys cannot be fetched is a 503.
 */
import test from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { authenticate } from '../src/auth/authenticate.js';
import { problemJson } from '../src/http/error-handler.js';
import {
  startTestIdentityProvider,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestIdentityProvider,
} from './support/jwks-server.js';

let idp: TestIdentityProvider;
test.before(async () => {
  idp = await startTestIdentityProvider();
});
test.after.always(async () => idp?.stop());

async function serve(jwksUri: string) {
  const logged: { level: string; fields: object; message: string }[] = [];
  const log = {
    debug: (fields: object, message: string) => logged.push({ level: 'debug', fields, message }),
    error: (fields: object, message: string) => logged.push({ level: 'error', fields, message }),
  };
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.log = log;
    await next();
  });
  app.use(problemJson);
  app.use(authenticate({ jwksUri: () => jwksUri, issuer: TEST_ISSUER, audience: TEST_AUDIENCE }));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, logged, close: () => new Promise((resolve) => server.close(resolve)) };
}

const claims = () => ({ tenant_id: randomUUID(), user_id: randomUUID(), env_id: randomUUID() });

test('the reason a token is refused is logged at debug level, without the token', async (t) => {
  const app = await serve(idp.jwksUri);
  const token = idp.sign(claims(), { expiresInSeconds: -60 });
  const response = await fetch(app.url, { headers: { authorization: `Bearer ${token}` } });
  t.is(response.status, 401);
  const entry = app.logged.find((e) => e.level === 'debug' && e.message.startsWith('bearer token refused'));
  t.truthy(entry);
  t.deepEqual(entry!.fields, { failure: 'expired' });
  t.is(entry!.message, 'bearer token refused: the token has expired (exp)');
  t.false(JSON.stringify(app.logged).includes(token.split('.')[2]!));
  await app.close();
});

test('a JWKS that cannot be fetched is 503 (the provider is unavailable), not a token failure', async (t) => {
  const app = await serve('http://127.0.0.1:9/.well-known/jwks.json');
  const response = await fetch(app.url, { headers: { authorization: `Bearer ${idp.sign(claims())}` } });
  t.is(response.status, 503);
  t.like(await response.json(), { detail: "the identity provider's signing keys (JWKS) could not be fetched" });
  await app.close();
});
