/**
 * Stream tickets: how a browser's EventSource, which cannot send an Authorization header,
 * authenticates to a server-sent event feed without putting its access token in a URL (URLs end
 * up in logs and histories). `POST /stream-tickets { path }` (authenticated) answers a random
 * ticket that is good for one GET of that feed path, within 60 seconds, once: `?ticket=`.
 * The ticket carries the principal that asked for it; the feed's permission is checked when the
 * ticket is used, as for a token.
 *
 * Tickets live in this process's memory, at most MAX_OUTSTANDING_TICKETS of them (the oldest is
 * dropped first). That suits one instance; several instances behind a load balancer need a
 * shared store (or sticky sessions), since the ticket may be used on another instance.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { zodFieldErrors } from './error-handler.js';
import { ok } from './envelope.js';
import { badRequest, unauthorized } from './problem.js';
import type { AppState } from './state.js';

export const STREAM_TICKET_TTL_MS = 60_000;
export const MAX_OUTSTANDING_TICKETS = 10_000;

interface Ticket {
  principal: Principal;
  path: string;
  expiresAt: number;
}

export function createStreamTicketStore(options: { now: () => Date; ttlMs?: number; maxTickets?: number }) {
  const ttlMs = options.ttlMs ?? STREAM_TICKET_TTL_MS;
  const maxTickets = options.maxTickets ?? MAX_OUTSTANDING_TICKETS;
  const tickets = new Map<string, Ticket>();

  const dropExpired = (now: number) => {
    for (const [id, ticket] of tickets) if (ticket.expiresAt <= now) tickets.delete(id);
  };

  return {
    issue(principal: Principal, path: string): { ticket: string; expiresAt: Date } {
      const now = options.now().getTime();
      if (tickets.size >= maxTickets) dropExpired(now);
      // Still full: the oldest ticket goes (a Map iterates in insertion order).
      while (tickets.size >= maxTickets) tickets.delete(tickets.keys().next().value!);
      const ticket = randomBytes(32).toString('base64url');
      tickets.set(ticket, { principal, path, expiresAt: now + ttlMs });
      return { ticket, expiresAt: new Date(now + ttlMs) };
    },
    /** The ticket's principal if it is valid for this path now; the ticket is spent either way. */
    redeem(ticket: string, path: string): Principal | null {
      const found = tickets.get(ticket);
      if (!found) return null;
      tickets.delete(ticket);
      if (found.expiresAt <= options.now().getTime() || found.path !== path) return null;
      return found.principal;
    },
    size: () => tickets.size,
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
