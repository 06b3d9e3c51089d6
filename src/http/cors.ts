/**
 * CORS for browser clients on the origins of CORS_ORIGINS (exact matches; none by default, so no
 * browser page may call the API). The allowed origin is echoed, never `*`, and credentials
 * (cookies) are not allowed: the API authenticates with bearer tokens, which a page sends itself.
 * A preflight is answered here, before authentication (browsers send it without a token).
 */
import type { Middleware } from 'koa';
import { HttpProblem } from './problem.js';

export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'Last-Event-ID',
  'X-Min-Read-Position',
  'X-Request-Id',
];
export const CORS_EXPOSED_HEADERS = ['ETag', 'Location', 'X-Read-Model-Pending', 'X-Read-Position', 'X-Request-Id'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function cors(origins: readonly string[]): Middleware {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    const preflight = ctx.method === 'OPTIONS' && origin !== '' && ctx.get('Access-Control-Request-Method') !== '';
    // Answers differ by Origin once any origin is allowed: caches must keep them apart.
    if (allowed.size > 0) ctx.vary('Origin');
    if (!allowed.has(origin)) {
      if (preflight) throw new HttpProblem(403, 'Forbidden', `the origin ${origin} is not allowed (CORS_ORIGINS)`);
      return next();
    }
    ctx.set('Access-Control-Allow-Origin', origin);
    if (preflight) {
      ctx.set('Access-Control-Allow-Methods', CORS_ALLOWED_METHODS.join(', '));
      ctx.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
      ctx.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    await next();
  };
}
