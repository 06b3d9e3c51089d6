/** last_login bookkeeping costs one command per token, not one per request. */
import test from 'ava';
import type { Context } from 'koa';
import { recordLogins } from '../src/auth/record-logins.js';
import type { Principal } from '../src/access/principal.js';

const principal = (userId: string, issuedAt = 1000): Principal => ({
  subject: userId,
  userId,
  tenantId: 't1',
  envId: 'e1',
  roles: [],
  issuedAt,
});

function harness(standing: 'active' | 'unknown' = 'active') {
  const calls = { resolve: 0, record: [] as string[] };
  const middleware = recordLogins({
    resolver: {
      resolve: async () => {
        calls.resolve++;
        return { standing, effective: new Map() } as never;
      },
    },
    recordLogin: async (_envelope, userId, iat) => {
      calls.record.push(`${userId}@${iat}`);
    },
  });
  const request = (who: Principal) =>
    middleware({ state: { principal: who, requestId: 'r' } } as unknown as Context, async () => {});
  return { calls, request };
}

test('many requests with one token record one login and resolve the principal once', async (t) => {
  const { calls, request } = harness();
  for (let i = 0; i < 50; i++) await request(principal('u1'));
  t.deepEqual(calls.record, ['u1@1000']);
  t.is(calls.resolve, 1);
});

test('concurrent first requests with one token share one recording', async (t) => {
  const { calls, request } = harness();
  await Promise.all(Array.from({ length: 20 }, () => request(principal('u1'))));
  t.deepEqual(calls.record, ['u1@1000']);
});

test('a newly issued token is a new login', async (t) => {
  const { calls, request } = harness();
  await request(principal('u1', 1000));
  await request(principal('u1', 2000));
  await request(principal('u1', 1000));
  t.deepEqual(calls.record, ['u1@1000', 'u1@2000']);
});

test('principals that are not active users are remembered too: no recording, one resolution', async (t) => {
  const { calls, request } = harness('unknown');
  for (let i = 0; i < 10; i++) await request(principal('client'));
  t.deepEqual(calls.record, []);
  t.is(calls.resolve, 1);
});

test('a failed recording is tried again by the next request with that token', async (t) => {
  let failures = 1;
  const recorded: string[] = [];
  const middleware = recordLogins({
    resolver: { resolve: async () => ({ standing: 'active' }) as never },
    recordLogin: async (_e, userId) => {
      if (failures-- > 0) throw new Error('store unavailable');
      recorded.push(userId);
    },
  });
  const ctx = () => ({ state: { principal: principal('u1'), requestId: 'r' } }) as unknown as Context;
  await middleware(ctx(), async () => {});
  await middleware(ctx(), async () => {});
  await middleware(ctx(), async () => {});
  t.deepEqual(recorded, ['u1']);
});
