/**
 * The web dashboard, served by the platform without a token: `/` (the page), `/dashboard/app.js`,
 * `/dashboard/app.css` and `/dashboard/config.json` (the token audience and which identity
 * provider signs tokens, so the sign-in page can ask the built-in one or take a pasted token).
 * None of them carries tenant data; every API call the page makes carries the bearer token.
 *
 * Everything comes from this origin (no CDN): the Content-Security-Policy allows nothing else,
 * so a page that works offline is also one that cannot load foreign script.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { HttpProblem } from '../http/problem.js';
import type { DashboardAsset, DashboardBundle } from './bundle.js';

export const DASHBOARD_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

export interface DashboardSettings {
  /** The `aud` tokens must carry (BASE_URL). */
  audience: string;
  identityProvider: 'embedded' | 'external';
}

function send(ctx: Context, asset: DashboardAsset) {
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', asset.etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (ctx.get('If-None-Match') === asset.etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = asset.contentType;
  ctx.body = asset.body;
}

export function dashboardRoutes(deps: { bundle: DashboardBundle; settings: DashboardSettings; logger: Logger }) {
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    send(ctx, deps.bundle.page());
  });
  router.get('/dashboard/app.css', (ctx) => send(ctx, deps.bundle.styles()));
  router.get('/dashboard/app.js', async (ctx) => {
    let script: DashboardAsset;
    try {
      script = await deps.bundle.script();
    } catch (error) {
      deps.logger.error({ err: error }, 'the dashboard script could not be bundled');
      throw new HttpProblem(503, 'Service Unavailable', 'the dashboard script could not be built; the log says why');
    }
    send(ctx, script);
  });
  router.get('/dashboard/config.json', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = { audience: deps.settings.audience, identity_provider: deps.settings.identityProvider };
  });
  return router;
}
