import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';

/** JSON bodies up to 1 MiB; larger ones are 413, malformed JSON is 400 (both as problem+json). */
export const MAX_BODY = '1mb';

/**
 * The OAuth token endpoint of the built-in identity provider also takes form bodies: RFC 6749
 * (4.4.2) has clients send application/x-www-form-urlencoded. Every other route takes JSON only.
 */
const FORM_BODY_PATHS = new Set(['/oauth/token']);

export function jsonBody(): Middleware {
  const json = bodyParser({ enableTypes: ['json'], jsonLimit: MAX_BODY, encoding: 'utf-8' }) as unknown as Middleware;
  const jsonOrForm = bodyParser({
    enableTypes: ['json', 'form'], jsonLimit: MAX_BODY, formLimit: MAX_BODY, encoding: 'utf-8',
    // The token endpoint answers an unreadable body with its own (RFC 6749) error; too large stays 413.
    onError: (error, ctx) => {
      if ((error as { status?: number }).status === 413) throw error;
      ctx.state.unreadableBody = true;
    },
  }) as unknown as Middleware;
  return (ctx, next) => (FORM_BODY_PATHS.has(ctx.path) ? jsonOrForm(ctx, next) : json(ctx, next));
}
