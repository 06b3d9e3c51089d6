/**
 * Issue 25 item 7: stream tickets are kept per tenant and capped per principal, so one tenant's
 * flood can no longer evict another tenant's tickets.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../src/access/principal.js';
import { createMemoryStreamTicketStore as createStreamTicketStore } from '../src/stream-tickets/memory.js';
import type { IssuedTicket } from '../src/stream-tickets/store.js';
import { streamTicketStoreContract } from './support/stream-ticket-store-contract.js';

const FEED = '/api/v1/incidents/stream';
const principal = (tenantId: string, userId = randomUUID()): Principal => ({
  subject: `user:${userId}`,
  userId,
  tenantId,
  envId: randomUUID(),
  roles: ['viewer'],
});
const issued = async (pending: Promise<IssuedTicket>) => {
  const result = await pending;
  if (!('ticket' in result)) throw new Error(`refused: ${result.refused.detail}`);
  return result.ticket;
};

test("10,000 tickets asked for by tenant B do not evict tenant A's ticket", async (t) => {
  let now = 0;
  const store = createStreamTicketStore({ now: () => new Date(now) });
  const alice = principal(randomUUID());
  const ticketOfA = await issued(store.issue(alice, FEED));
  const tenantB = randomUUID();
  const flooders = Array.from({ length: 500 }, () => principal(tenantB));
  let refusals = 0;
  for (let i = 0; i < 10_000; i += 1) if (!('ticket' in (await store.issue(flooders[i % 500]!, FEED)))) refusals += 1;
  now += 1000;
  t.true(refusals > 0, 'tenant B is capped');
  t.deepEqual(await store.redeem(ticketOfA, FEED), alice, "tenant A's ticket is still good");
});

test('tickets nobody redeems are dropped once expired, also those of tenants that never come back', async (t) => {
  let now = 0;
  const store = createStreamTicketStore({ now: () => new Date(now), ttlMs: 60_000 });
  for (let i = 0; i < 50; i += 1) await issued(store.issue(principal(randomUUID()), FEED));
  t.is(store.size(), 50);
  now += 2 * 60_000;
  await issued(store.issue(principal(randomUUID()), FEED));
  t.is(store.size(), 1);
});

streamTicketStoreContract('memory', { open: async (limits) => createStreamTicketStore(limits) });
