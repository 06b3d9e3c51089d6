/**
 * Issue 25 item 6: tokens naming made-up key ids must not lock out new logins. The last good key
 * set is kept; an unknown kid refreshes it at most once per 30 s for all callers together; a
 * refresh that is not due yet is never read as "unknown key".
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp } from './support/test-app.js';

test('1,000 tokens with random kids cost one JWKS fetch and lock nobody out; a token signed with a newly published key verifies once the 30 s interval has passed', async (t) => {
  let clockAheadMs = 0;
  const app = await startTestApp({ now: () => new Date(Date.now() + clockAheadMs) });
  t.teardown(() => app.close());
  const caller = app.newTenant();
  const get = (token: string) => app.request('GET', '/api/v1/notification-channels', { token });

  t.is((await get(app.token(caller))).status, 200, 'the published key verifies');
  const fetchesBefore = app.idp.requests();
  clockAheadMs += 31_000;
  const statuses = new Map<number, number>();
  for (let batch = 0; batch < 20; batch += 1) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => get(app.token(caller, { kid: `random-${randomUUID()}` }))),
    );
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  t.log(
    `JWKS fetches for 1,000 random kids: ${app.idp.requests() - fetchesBefore}; answers: ${JSON.stringify([...statuses])}`,
  );
  t.true(
    app.idp.requests() - fetchesBefore <= 1,
    `JWKS fetched ${app.idp.requests() - fetchesBefore} times for 1,000 random kids`,
  );
  t.is((statuses.get(401) ?? 0) + (statuses.get(503) ?? 0), 1000, JSON.stringify([...statuses]));
  t.is((await get(app.token(caller))).status, 200, 'the known key still verifies in the middle of the flood');

  // The provider rotates: a new key is published and a new login is signed with it.
  app.idp.publishNewKey();
  const fresh = app.token(caller);
  const early = await get(fresh);
  t.not(early.status, 200, 'within the interval the new key is not looked up yet');
  t.is(early.status, 503, 'and that is not called an unknown key');
  t.true(Number(early.headers.get('retry-after')) >= 1);
  t.false(String(early.body.detail).includes('not published'));

  clockAheadMs += 30_000;
  t.is((await get(fresh)).status, 200, 'once the interval has passed, the freshly signed token verifies');
  t.is(
    (await get(app.token(caller, { kid: 'still-unknown' }))).status,
    503,
    'the next unknown kid waits for the next interval',
  );
});
