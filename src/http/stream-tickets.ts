/**
 * Stream tickets: how a browser's EventSource, which cannot send an Authorization header,
 * authenticates to a server-sent event feed without putting its access token in a URL (URLs end
 * up in logs and histories). `POST /stream-tickets { path }` (authenticated) answers a random
 * ticket that is good for one GET of that feed path, within 60 seconds, once: `?ticket=`.
 * The ticket carries the principal that asked for it; the feed's permission is checked when the
 * ticket is used, as for a token.
 *
 * Tickets live in this process's memory, kept per tenant: a principal holds at most
 * STREAM_TICKETS_PER_PRINCIPAL live tickets and a tenant STREAM_TICKETS_PER_TENANT; beyond, asking
 * is a 429 with Retry-After (when its oldest ticket expires). Nothing is ever evicted to make room,
 * so no tenant's asking can cost another tenant (or another user) a ticket. That suits one
 * instance; several instances behind a load balancer need a shared store (or sticky sessions),
 * since the ticket may be used on another instance.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { zodFieldErrors } from './error-handler.js';
import { ok } from './envelope.js';
import { badRequest, tooManyRequests, unauthorized } from './problem.js';
import type { AppState } from './state.js';

export const STREAM_TICKET_TTL_MS = 60_000;
export const STREAM_TICKETS_PER_PRINCIPAL = 20;
export const STREAM_TICKETS_PER_TENANT = 1000;

interface Ticket {
  principal: Principal;
  path: string;
  expiresAt: number;
}

export type IssuedTicket = { ticket: string; expiresAt: Date } | { refused: { detail: string; retryAfterSeconds: number } };

/** Within a tenant, a caller is its user id (a user's tokens differ in subject from one login to the next). */
const holderOf = (principal: Principal) => principal.userId;

export function createStreamTicketStore(options: { now: () => Date; ttlMs?: number; perPrincipal?: number; perTenant?: number }) {
  const ttlMs = options.ttlMs ?? STREAM_TICKET_TTL_MS;
  const perPrincipal = options.perPrincipal ?? STREAM_TICKETS_PER_PRINCIPAL;
  const perTenant = options.perTenant ?? STREAM_TICKETS_PER_TENANT;
  /** tenant id → holder → ticket → ticket (insertion order is issue order: the first is the oldest). */
  const tenants = new Map<string, Map<string, Map<string, Ticket>>>();
  /** ticket → where it is kept, so a ticket is found without knowing whose it is. */
  const placeOf = new Map<string, { tenantId: string; holder: string }>();

  const holdersOf = (tenantId: string) => tenants.get(tenantId) ?? tenants.set(tenantId, new Map()).get(tenantId)!;
  const countOf = (holders: Map<string, Map<string, Ticket>>) => [...holders.values()].reduce((sum, own) => sum + own.size, 0);
  function remove(ticket: string) {
    const place = placeOf.get(ticket);
    if (!place) return;
    placeOf.delete(ticket);
    const holders = tenants.get(place.tenantId)!;
    const own = holders.get(place.holder)!;
    own.delete(ticket);
    if (own.size === 0) holders.delete(place.holder);
    if (holders.size === 0) tenants.delete(place.tenantId);
  }
  const dropExpired = (own: Map<string, Ticket>, now: number) => {
    for (const [id, ticket] of own) if (ticket.expiresAt <= now) remove(id);
  };
  // Tickets nobody redeems are dropped at the latest one lifetime after they expire, whoever asks
  // next: without the sweep, tenants that never come back would keep theirs forever.
  let lastSweep = options.now().getTime();
  const sweep = (now: number) => {
    if (now - lastSweep < ttlMs) return;
    lastSweep = now;
    for (const holders of [...tenants.values()]) for (const own of [...holders.values()]) dropExpired(own, now);
  };
  const refusal = (detail: string, oldest: Ticket, now: number) => ({ refused: { detail, retryAfterSeconds: Math.max(1, Math.ceil((oldest.expiresAt - now) / 1000)) } });

  return {
    issue(principal: Principal, path: string): IssuedTicket {
      const now = options.now().getTime();
      sweep(now);
      const holder = holderOf(principal);
      const holders = holdersOf(principal.tenantId);
      dropExpired(holders.get(holder) ?? new Map(), now);
      const own = holders.get(holder);
      if (own && own.size >= perPrincipal) return refusal(`at most ${perPrincipal} unused stream tickets per caller; use one or let it expire first`, own.values().next().value!, now);
      if (countOf(holders) >= perTenant) {
        for (const tickets of [...holders.values()]) dropExpired(tickets, now);
        const oldest = [...holders.values()].map((tickets) => tickets.values().next().value!).sort((a, b) => a.expiresAt - b.expiresAt)[0];
        if (oldest && countOf(holders) >= perTenant) return refusal(`at most ${perTenant} unused stream tickets per tenant`, oldest, now);
      }
      const ticket = randomBytes(32).toString('base64url');
      const kept = holdersOf(principal.tenantId);
      (kept.get(holder) ?? kept.set(holder, new Map()).get(holder)!).set(ticket, { principal, path, expiresAt: now + ttlMs });
      placeOf.set(ticket, { tenantId: principal.tenantId, holder });
      return { ticket, expiresAt: new Date(now + ttlMs) };
    },
    /** The ticket's principal if it is valid for this path now; the ticket is spent either way. */
    redeem(ticket: string, path: string): Principal | null {
      const place = placeOf.get(ticket);
      const found = place && tenants.get(place.tenantId)?.get(place.holder)?.get(ticket);
      if (!found) return null;
      remove(ticket);
      if (found.expiresAt <= options.now().getTime() || found.path !== path) return null;
      return found.principal;
    },
    size: () => placeOf.size,
  };
}

export type StreamTicketStore = ReturnType<typeof createStreamTicketStore>;

export const ticketRequestSchema = z.strictObject({ path: z.string().min(1) });

/** `POST /stream-tickets`; `feeds` are the full paths (with /api/v1) a ticket may name. */
export function streamTicketRoutes(deps: { tickets: StreamTicketStore; feeds: readonly string[] }): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/stream-tickets', async (ctx) => {
    const parsed = ticketRequestSchema.safeParse(ctx.request.body);
    if (!parsed.success) throw badRequest('expected { path } naming an event stream', zodFieldErrors(parsed.error));
    const { path } = parsed.data;
    if (!deps.feeds.includes(path)) {
      throw badRequest(`${path} is not an event stream`, [{ path: '/path', message: `must be one of: ${deps.feeds.join(', ')}` }]);
    }
    const issued = deps.tickets.issue(ctx.state.principal, path);
    if ('refused' in issued) throw tooManyRequests(issued.refused.detail, issued.refused.retryAfterSeconds);
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, { ticket: issued.ticket, expires_at: issued.expiresAt.toISOString() }, 201);
  });
  return router;
}

/**
 * Authentication that also takes a stream ticket: a GET without an Authorization header but with
 * `?ticket=` is authenticated by the ticket (401 if it is unknown, spent, expired or for another
 * path); everything else goes to the bearer-token check.
 */
export function bearerOrStreamTicket(tickets: StreamTicketStore, bearer: Middleware): Middleware {
  return async (ctx, next) => {
    const ticket = ctx.query.ticket;
    if (ctx.method !== 'GET' || ctx.get('Authorization') !== '' || ticket === undefined) return bearer(ctx, next);
    const principal = typeof ticket === 'string' ? tickets.redeem(ticket, ctx.path) : null;
    if (!principal) throw unauthorized('the stream ticket is unknown, already used, expired or for another path');
    ctx.state.principal = principal;
    await next();
  };
}
