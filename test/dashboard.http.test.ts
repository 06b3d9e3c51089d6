/**
 * The dashboard's static files are served by the platform without a token, from this origin only
 * (a Content-Security-Policy that allows nothing else), bundled on first request and revalidated
 * by ETag; the page learns the token audience and the kind of identity provider from config.json.
 */
import test from 'ava';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TEST_AUDIENCE } from './support/jwks-server.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

test('the page needs no token and allows only its own origin', async (t) => {
  const response = await fetch(`${app.url}/`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = response.headers.get('content-security-policy')!;
  for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"])
    t.true(csp.includes(directive), directive);
  const html = await response.text();
  t.regex(
    html,
    /<script type="module" src="\/dashboard\/app\.[0-9a-f]{16}\.js"><\/script>/,
    'the script by its hashed name (test/dashboard-assets.http.test.ts)',
  );
  t.false(/https?:\/\//.test(html), 'nothing is loaded from elsewhere');
});

test('the script is bundled from the TypeScript sources, with an ETag that answers 304', async (t) => {
  const response = await fetch(`${app.url}/dashboard/app.js`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
  const script = await response.text();
  t.true(script.length > 10_000, `${script.length} bytes`);
  t.true(script.includes('/api/v1/stream-tickets'), 'the feed asks for stream tickets');
  t.false(/\bimport\s*["'{]|from\s*["']preact/.test(script), 'Preact is bundled in, nothing is imported at run time');
  const etag = response.headers.get('etag')!;
  t.regex(etag, /^"[\w-]{22}"$/);
  t.is((await fetch(`${app.url}/dashboard/app.js`, { headers: { 'if-none-match': etag } })).status, 304);
  const styles = await fetch(`${app.url}/dashboard/app.css`);
  t.is(styles.status, 200);
  t.is(styles.headers.get('content-type'), 'text/css; charset=utf-8');
});

test('config.json names the audience and an external identity provider (AUTH_JWKS_URI is set here)', async (t) => {
  const response = await fetch(`${app.url}/dashboard/config.json`);
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { audience: TEST_AUDIENCE, identity_provider: 'external' });
});

test('the API stays behind its token: the dashboard does not open other paths', async (t) => {
  t.is((await fetch(`${app.url}/dashboard/other.js`)).status, 401);
  t.is((await fetch(`${app.url}/api/v1/me`)).status, 401);
});
