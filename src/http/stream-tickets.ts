/**
 * Stream tickets: how a browser's EventSource, which cannot send an Authorization header,
 * authenticates to a server-sent event feed without putting its access token in a URL (URLs end
 * up in logs and histories). `POST /stream-tickets { path }` (authenticated) answers a random
 * ticket that is good for one GET of that feed path, within 60 seconds, once: `?ticket=`.
 * The ticket carries the principal that asked for it; the feed's permission is checked when the
 * ticket is used, as for a token.
 *
 * Where tickets are kept, and the limits every store enforces: src/stream-tickets/store.ts
 * (process memory by default; MongoDB when MONGODB_URL is set, so any instance of a cluster
 * accepts a ticket another issued).
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { zodFieldErrors } from './error-handler.js';
import { ok } from './envelope.js';
import { badRequest, tooManyRequests, unauthorized } from './problem.js';
import type { AppState } from './state.js';
import type { StreamTicketStore } from '../stream-tickets/store.js';

export const ticketRequestSchema = z.strictObject({ path: z.string().min(1) });

/** `POST /stream-tickets`; `feeds` are the full paths (with /api/v1) a ticket may name. */
export function streamTicketRoutes(deps: { tickets: StreamTicketStore; feeds: readonly string[] }): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/stream-tickets', async (ctx) => {
    const parsed = ticketRequestSchema.safeParse(ctx.request.body);
    if (!parsed.success) throw badRequest('expected { path } naming an event stream', zodFieldErrors(parsed.error));
    const { path } = parsed.data;
    if (!deps.feeds.includes(path)) {
      throw badRequest(`${path} is not an event stream`, [
        { path: '/path', message: `must be one of: ${deps.feeds.join(', ')}` },
      ]);
    }
    const issued = await deps.tickets.issue(ctx.state.principal, path);
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
    const principal = typeof ticket === 'string' ? await tickets.redeem(ticket, ctx.path) : null;
    if (!principal) throw unauthorized('the stream ticket is unknown, already used, expired or for another path');
    ctx.state.principal = principal;
    await next();
  };
}
