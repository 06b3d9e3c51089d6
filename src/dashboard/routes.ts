/**
 * The web dashboard, served by the platform without a token: `/` (the page), its script and
 * stylesheet, and `/dashboard/config.json` (the token audience and which identity provider signs
 * tokens, so the sign-in page can ask the built-in one or take a pasted token). None of them
 * carries tenant data; every API call the page makes carries the bearer token.
 *
 * The page refers to `/dashboard/app.<hash>.js` and `.css`, named by their content: those are
 * cached for a year as immutable (a new build has new names), while the page, and the plain
 * `/dashboard/app.js` and `app.css` (for tools and scripts), are revalidated by ETag on every use.
 * Each is sent brotli- or gzip-compressed as the request's Accept-Encoding allows (compressed
 * once per build, src/dashboard/bundle.ts), with `Vary: Accept-Encoding` for caches.
 *
 * Everything comes from this origin (no CDN): the Content-Security-Policy allows nothing else,
 * so a page that works offline is also one that cannot load foreign script.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { HttpProblem } from '../http/problem.js';
import { ENCODINGS, type DashboardAsset, type DashboardBuild, type DashboardBundle, type Encoding } from './bundle.js';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface DashboardSettings {
  /** The `aud` tokens must carry (BASE_URL). */
  audience: string;
  identityProvider: 'embedded' | 'external';
}

const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The best encoding of the asset that the request accepts (brotli before gzip, whatever the client's order). */
function chosenEncoding(ctx: Context, asset: DashboardAsset): Encoding {
  for (const encoding of ENCODINGS) {
    if (asset.encodings[encoding] && ctx.acceptsEncodings(encoding) === encoding) return encoding;
  }
  return 'identity';
}

const matches = (ifNoneMatch: string, etag: string) =>
  ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);

function send(ctx: Context, asset: DashboardAsset, cacheControl: string) {
  const encoding = chosenEncoding(ctx, asset);
  const { body, etag } = asset.encodings[encoding]!;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('Vary', 'Accept-Encoding');
  ctx.set('ETag', etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (matches(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.type = asset.contentType;
  ctx.body = body;
}

export function dashboardRoutes(deps: { bundle: DashboardBundle; settings: DashboardSettings; logger: Logger }) {
  const built = async (): Promise<DashboardBuild> => {
    try {
      return await deps.bundle.build();
    } catch (error) {
      deps.logger.error({ err: error }, 'the dashboard could not be built');
      throw new HttpProblem(503, 'Service Unavailable', 'the dashboard script could not be built; the log says why');
    }
  };
  /** A hashed name serves this build's file; another build's hash is gone (the page that named it is stale). */
  const hashed = (pick: (build: DashboardBuild) => DashboardAsset) => async (ctx: Context) => {
    const asset = pick(await built());
    if (ctx.params.hash !== asset.hash)
      throw new HttpProblem(404, 'Not Found', 'no such dashboard file in this build; reload the page');
    send(ctx, asset, IMMUTABLE);
  };
  const router = new Router();
  router.get('/', async (ctx) => {
    const page = (await built()).page;
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    send(ctx, page, REVALIDATE);
  });
  router.get('/dashboard/app.css', async (ctx) => send(ctx, (await built()).styles, REVALIDATE));
  router.get('/dashboard/app.js', async (ctx) => send(ctx, (await built()).script, REVALIDATE));
  router.get(
    '/dashboard/app.:hash.css',
    hashed((build) => build.styles),
  );
  router.get(
    '/dashboard/app.:hash.js',
    hashed((build) => build.script),
  );
  router.get('/dashboard/config.json', (ctx) => {
    ctx.set('Cache-Control', REVALIDATE);
    ctx.body = { audience: deps.settings.audience, identity_provider: deps.settings.identityProvider };
  });
  return router;
}
