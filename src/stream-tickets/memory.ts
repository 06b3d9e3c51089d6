/**
 * Stream tickets in this process's memory (the embedded default; src/stream-tickets/store.ts
 * has the rules). Kept per tenant and holder, so one tenant's asking never costs another tenant
 * (or another user) a ticket. Only one instance can redeem them: a cluster uses the MongoDB store.
 */
import { randomBytes } from 'node:crypto';
import type { Principal } from '../access/principal.js';
import {
  holderOf,
  limitsWithDefaults,
  perPrincipalRefusal,
  perTenantRefusal,
  refusal,
  ticketHash,
  type IssuedTicket,
  type StreamTicketLimits,
  type StreamTicketStore,
} from './store.js';

interface Ticket {
  principal: Principal;
  path: string;
  expiresAt: number;
}

export function createMemoryStreamTicketStore(options: StreamTicketLimits): StreamTicketStore & { size(): number } {
  const { ttlMs, perPrincipal, perTenant } = limitsWithDefaults(options);
  /** tenant id → holder → ticket hash → ticket (insertion order is issue order: the first is the oldest). */
  const tenants = new Map<string, Map<string, Map<string, Ticket>>>();
  /** ticket hash → where it is kept, so a ticket is found without knowing whose it is. */
  const placeOf = new Map<string, { tenantId: string; holder: string }>();

  const holdersOf = (tenantId: string) => tenants.get(tenantId) ?? tenants.set(tenantId, new Map()).get(tenantId)!;
  const countOf = (holders: Map<string, Map<string, Ticket>>) =>
    [...holders.values()].reduce((sum, own) => sum + own.size, 0);
  function remove(hash: string) {
    const place = placeOf.get(hash);
    if (!place) return;
    placeOf.delete(hash);
    const holders = tenants.get(place.tenantId)!;
    const own = holders.get(place.holder)!;
    own.delete(hash);
    if (own.size === 0) holders.delete(place.holder);
    if (holders.size === 0) tenants.delete(place.tenantId);
  }
  const dropExpired = (own: Map<string, Ticket>, now: number) => {
    for (const [hash, ticket] of own) if (ticket.expiresAt <= now) remove(hash);
  };
  // Tickets nobody redeems are dropped at the latest one lifetime after they expire, whoever asks
  // next: without the sweep, tenants that never come back would keep theirs forever.
  let lastSweep = options.now().getTime();
  const sweep = (now: number) => {
    if (now - lastSweep < ttlMs) return;
    lastSweep = now;
    for (const holders of [...tenants.values()]) for (const own of [...holders.values()]) dropExpired(own, now);
  };

  function issue(principal: Principal, path: string): IssuedTicket {
    const now = options.now().getTime();
    sweep(now);
    const holder = holderOf(principal);
    const holders = holdersOf(principal.tenantId);
    dropExpired(holders.get(holder) ?? new Map(), now);
    const own = holders.get(holder);
    if (own && own.size >= perPrincipal)
      return refusal(perPrincipalRefusal(perPrincipal), own.values().next().value!.expiresAt, now);
    if (countOf(holders) >= perTenant) {
      for (const tickets of [...holders.values()]) dropExpired(tickets, now);
      const oldest = [...holders.values()]
        .map((tickets) => tickets.values().next().value!)
        .sort((a, b) => a.expiresAt - b.expiresAt)[0];
      if (oldest && countOf(holders) >= perTenant) return refusal(perTenantRefusal(perTenant), oldest.expiresAt, now);
    }
    const ticket = randomBytes(32).toString('base64url');
    const hash = ticketHash(ticket);
    const kept = holdersOf(principal.tenantId);
    (kept.get(holder) ?? kept.set(holder, new Map()).get(holder)!).set(hash, {
      principal,
      path,
      expiresAt: now + ttlMs,
    });
    placeOf.set(hash, { tenantId: principal.tenantId, holder });
    return { ticket, expiresAt: new Date(now + ttlMs) };
  }

  function redeem(ticket: string, path: string): Principal | null {
    const hash = ticketHash(ticket);
    const place = placeOf.get(hash);
    const found = place && tenants.get(place.tenantId)?.get(place.holder)?.get(hash);
    if (!found) return null;
    // Spent whatever happens next (expired, or shown for another path).
    remove(hash);
    if (found.expiresAt <= options.now().getTime() || found.path !== path) return null;
    return found.principal;
  }

  return {
    issue: async (principal, path) => issue(principal, path),
    redeem: async (ticket, path) => redeem(ticket, path),
    size: () => placeOf.size,
  };
}
