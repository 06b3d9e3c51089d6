/**
 * Issue 25 item 7: stream tickets are kept per tenant and capped per principal, so one tenant's
 * flood can no longer evict another tenant's tickets.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../src/auth/principal.js';
import { createStreamTicketStore } from '../src/http/stream-tickets.js';

const FEED = '/api/v1/incidents/stream';
const principal = (tenantId: string, userId = randomUUID()): Principal => ({ subject: `user:${userId}`, userId, tenantId, envId: randomUUID(), roles: ['viewer'] });
const issued = (result: ReturnType<ReturnType<typeof createStreamTicketStore>['issue']>) => {
  if (!('ticket' in result)) throw new Error(`refused: ${result.refused.detail}`);
  return result.ticket;
};

test("10,000 tickets asked for by tenant B do not evict tenant A's ticket", (t) => {
  let now = 0;
  const store = createStreamTicketStore({ now: () => new Date(now) });
  const alice = principal(randomUUID());
  const ticketOfA = issued(store.issue(alice, FEED));
  const tenantB = randomUUID();
  const flooders = Array.from({ length: 500 }, () => principal(tenantB));
  let refusals = 0;
  for (let i = 0; i < 10_000; i += 1) if (!('ticket' in store.issue(flooders[i % 500]!, FEED))) refusals += 1;
  now += 1000;
  t.true(refusals > 0, 'tenant B is capped');
  t.deepEqual(store.redeem(ticketOfA, FEED), alice, "tenant A's ticket is still good");
});

test('a principal holds at most its cap of live tickets; the next is refused with when to retry, and spent or expired tickets free places', (t) => {
  let now = 1_000_000;
  const store = createStreamTicketStore({ now: () => new Date(now), perPrincipal: 3, ttlMs: 60_000 });
  const bob = principal(randomUUID());
  const tickets = [issued(store.issue(bob, FEED))];
  now += 10_000;
  tickets.push(issued(store.issue(bob, FEED)), issued(store.issue(bob, FEED)));
  const refused = store.issue(bob, FEED);
  t.like(refused, { refused: { retryAfterSeconds: 50 } });
  t.true('ticket' in store.issue(principal(bob.tenantId), FEED), 'another principal of the same tenant is not affected');
  t.truthy(store.redeem(tickets[0]!, FEED));
  t.true('ticket' in store.issue(bob, FEED), 'a spent ticket frees a place');
  t.false('ticket' in store.issue(bob, FEED));
  now += 60_000;
  t.true('ticket' in store.issue(bob, FEED), 'expired tickets free their places');
});

test('tickets nobody redeems are dropped once expired, also those of tenants that never come back', (t) => {
  let now = 0;
  const store = createStreamTicketStore({ now: () => new Date(now), ttlMs: 60_000 });
  for (let i = 0; i < 50; i += 1) issued(store.issue(principal(randomUUID()), FEED));
  t.is(store.size(), 50);
  now += 2 * 60_000;
  issued(store.issue(principal(randomUUID()), FEED));
  t.is(store.size(), 1);
});
