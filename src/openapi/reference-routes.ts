/**
 * GET /openapi.json and the reference page at /docs: Swagger UI from the `swagger-ui-dist` npm
 * package, its files served from node_modules by this router (no CDN: the page works offline).
 * Both are public, like /health: the document holds no tenant data.
 */
import Router from '@koa/router';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of the package the page loads; nothing else of node_modules is reachable. */
const PACKAGE_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Our own start script, a file rather than inline so the page's CSP needs no 'unsafe-inline' script. */
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Tags start collapsed: with every tag expanded ('list'), Swagger UI 5 stopped after the first
    // tag once the document passed about 140 operations (no error; test/api-reference.browser.test.ts).
    docExpansion: 'none',
    // No call to the public online validator: the page works offline and sends the document nowhere.
    validatorUrl: null,
    persistAuthorization: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>warehouse-watch API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/initializer.js"></script>
</body>
</html>
`;

/**
 * Only this page's own files; Swagger UI sets inline styles (hence 'unsafe-inline' for styles only)
 * and draws some icons as data: URIs. "Try it out" calls this origin (connect-src 'self').
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function apiReferenceRoutes(deps: { document: () => unknown }): Router {
  const router = new Router();
  const cache = new Map<string, Buffer>();
  const packageFile = async (name: string) => {
    let content = cache.get(name);
    if (!content) cache.set(name, (content = await readFile(join(SWAGGER_UI_DIR, name))));
    return content;
  };

  // The document never changes while the process runs: serialised once (about 370 kB).
  let serialised: string | undefined;
  router.get('/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = serialised ??= JSON.stringify(deps.document());
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/:asset', async (ctx) => {
    const name = ctx.params.asset!;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=3600');
    if (name === 'initializer.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INITIALIZER;
      return;
    }
    const type = PACKAGE_ASSETS[name];
    if (!type) return; // 404
    ctx.type = type;
    ctx.body = await packageFile(name);
  });
  return router;
}
