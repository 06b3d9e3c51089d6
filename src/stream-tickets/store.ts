/**
 * The stream-ticket store port (the tickets themselves: src/http/stream-tickets.ts). Two adapters:
 * process memory (memory.ts, the embedded default: one instance) and MongoDB
 * (mongodb.ts, when MONGODB_URL is set: any instance redeems what another issued).
 *
 * The rules every adapter keeps: a ticket lasts STREAM_TICKET_TTL_MS and is good for one use; a
 * holder has at most `perPrincipal` live tickets and a tenant `perTenant`, beyond which asking is
 * refused with when to retry (when the oldest live ticket expires); nothing is evicted to make
 * room. A ticket is a bearer credential: stores keep only its SHA-256 hash.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../access/principal.js';

export const STREAM_TICKET_TTL_MS = 60_000;
export const STREAM_TICKETS_PER_PRINCIPAL = 20;
export const STREAM_TICKETS_PER_TENANT = 1000;

export type IssuedTicket =
  | { ticket: string; expiresAt: Date }
  | { refused: { detail: string; retryAfterSeconds: number } };

export interface StreamTicketStore {
  /** A new ticket for this principal and feed path, or a refusal when a live-ticket limit is reached. */
  issue(principal: Principal, path: string): Promise<IssuedTicket>;
  /** The ticket's principal if it is valid for this path now; at most one call ever gets it. */
  redeem(ticket: string, path: string): Promise<Principal | null>;
}

export interface StreamTicketLimits {
  now: () => Date;
  ttlMs?: number;
  perPrincipal?: number;
  perTenant?: number;
}

export const limitsWithDefaults = (options: StreamTicketLimits) => ({
  now: options.now,
  ttlMs: options.ttlMs ?? STREAM_TICKET_TTL_MS,
  perPrincipal: options.perPrincipal ?? STREAM_TICKETS_PER_PRINCIPAL,
  perTenant: options.perTenant ?? STREAM_TICKETS_PER_TENANT,
});

/** Within a tenant, a caller is its user id (a user's tokens differ in subject from one login to the next). */
export const holderOf = (principal: Principal) => principal.userId;

/** What a store keeps in place of the ticket: the hex SHA-256 of it. */
export const ticketHash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export const perPrincipalRefusal = (limit: number) =>
  `at most ${limit} unused stream tickets per caller; use one or let it expire first`;
export const perTenantRefusal = (limit: number) => `at most ${limit} unused stream tickets per tenant`;

/** A refusal that says to come back when `oldestExpiresAt` (ms) has passed; at least 1 s. */
export const refusal = (detail: string, oldestExpiresAt: number, now: number): IssuedTicket => ({
  refused: { detail, retryAfterSeconds: Math.max(1, Math.ceil((oldestExpiresAt - now) / 1000)) },
});
