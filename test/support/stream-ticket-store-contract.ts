/**
 * The stream-ticket store contract (src/stream-tickets/store.ts): one suite, run against
 * every adapter (test/stream-tickets.test.ts: memory; test/stream-tickets-mongodb.test.ts: the
 * MongoDB stand-in, and a real server when MONGODB_URL is set). Each test opens a fresh store on
 * its own clock.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../src/access/principal.js';
import type { IssuedTicket, StreamTicketLimits, StreamTicketStore } from '../../src/stream-tickets/store.js';

export interface StreamTicketStoreTarget {
  open(limits: StreamTicketLimits): Promise<StreamTicketStore>;
  skipReason?: string;
}

const FEED = '/api/v1/incidents/stream';
const OTHER_FEED = '/api/v1/sync/stream';
export const ticketPrincipal = (tenantId: string = randomUUID(), userId: string = randomUUID()): Principal => ({
  subject: `user:${userId}`,
  userId,
  tenantId,
  envId: randomUUID(),
  roles: ['viewer'],
  expiresAt: 2_000_000_000,
});
export const ticketOf = (result: IssuedTicket) => {
  if (!('ticket' in result)) throw new Error(`refused: ${result.refused.detail}`);
  return result.ticket;
};

export function streamTicketStoreContract(label: string, target: StreamTicketStoreTarget): void {
  if (target.skipReason) {
    test.skip(`[${label}] stream ticket store contract skipped: ${target.skipReason}`, () => {});
    return;
  }
  const clock = (start = 1_700_000_000_000) => {
    const state = { at: start, now: () => new Date(state.at) };
    return state;
  };

  test(`[${label}] a ticket is good once, for its path, for its principal`, async (t) => {
    const time = clock();
    const store = await target.open({ now: time.now });
    const alice = ticketPrincipal();
    const ticket = ticketOf(await store.issue(alice, FEED));
    t.deepEqual(await store.redeem(ticket, FEED), alice);
    t.is(await store.redeem(ticket, FEED), null, 'the second use is refused');
    t.is(await store.redeem('no-such-ticket', FEED), null);
  });

  test(`[${label}] a ticket shown for another path is refused and spent`, async (t) => {
    const time = clock();
    const store = await target.open({ now: time.now });
    const ticket = ticketOf(await store.issue(ticketPrincipal(), FEED));
    t.is(await store.redeem(ticket, OTHER_FEED), null);
    t.is(await store.redeem(ticket, FEED), null);
  });

  test(`[${label}] a ticket expires after its lifetime, to the millisecond`, async (t) => {
    const time = clock();
    const store = await target.open({ now: time.now, ttlMs: 60_000 });
    const issued = await store.issue(ticketPrincipal(), FEED);
    t.is('expiresAt' in issued && issued.expiresAt.getTime(), time.at + 60_000);
    const late = ticketOf(issued);
    const inTime = ticketOf(await store.issue(ticketPrincipal(), FEED));
    time.at += 59_999;
    t.truthy(await store.redeem(inTime, FEED));
    time.at += 1;
    t.is(await store.redeem(late, FEED), null, 'at its expiry the ticket is refused');
  });

  test(`[${label}] two redeemers of one ticket at once: exactly one gets it`, async (t) => {
    const time = clock();
    const store = await target.open({ now: time.now, perPrincipal: 50 });
    const alice = ticketPrincipal();
    for (let i = 0; i < 20; i += 1) {
      const ticket = ticketOf(await store.issue(alice, FEED));
      const answers = await Promise.all([
        store.redeem(ticket, FEED),
        store.redeem(ticket, FEED),
        store.redeem(ticket, FEED),
      ]);
      t.is(answers.filter((answer) => answer !== null).length, 1);
    }
  });

  test(`[${label}] a caller holds at most its cap of live tickets; the next is refused with when to retry`, async (t) => {
    const time = clock();
    const store = await target.open({ now: time.now, perPrincipal: 3, ttlMs: 60_000 });
    const bob = ticketPrincipal();
    const tickets = [ticketOf(await store.issue(bob, FEED))];
    time.at += 10_000;
    tickets.push(ticketOf(await store.issue(bob, FEED)), ticketOf(await store.issue(bob, FEED)));
    t.like(await store.issue(bob, FEED), { refused: { retryAfterSeconds: 50 } });
    t.true(
      'ticket' in (await store.issue(ticketPrincipal(bob.tenantId), FEED)),
      'another caller of the same tenant is not affected',
    );
    t.truthy(await store.redeem(tickets[0]!, FEED));
    t.true('ticket' in (await store.issue(bob, FEED)), 'a spent ticket frees a place');
    t.false('ticket' in (await store.issue(bob, FEED)));
    time.at += 60_000;
    t.true('ticket' in (await store.issue(bob, FEED)), 'expired tickets free their places');
  });

  test(`[${label}] a tenant holds at most its cap of live tickets; other tenants are not affected`, async (t) => {
    const time = clock();
    const store = await target.open({ now: time.now, perTenant: 4, ttlMs: 60_000 });
    const tenant = randomUUID();
    const first = ticketOf(await store.issue(ticketPrincipal(tenant), FEED));
    time.at += 30_000;
    for (let i = 0; i < 3; i += 1) ticketOf(await store.issue(ticketPrincipal(tenant), FEED));
    const refused = await store.issue(ticketPrincipal(tenant), FEED);
    t.like(refused, { refused: { retryAfterSeconds: 30 } });
    t.regex('refused' in refused ? refused.refused.detail : '', /per tenant/);
    t.true('ticket' in (await store.issue(ticketPrincipal(), FEED)), 'another tenant is not affected');
    t.truthy(await store.redeem(first, FEED));
    t.true('ticket' in (await store.issue(ticketPrincipal(tenant), FEED)), 'a spent ticket frees a place');
  });
}
