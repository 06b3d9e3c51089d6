/**
 * The dashboard's files are sent compressed and cached by content (issue 29, defect 10): brotli or
 * gzip as Accept-Encoding allows, with `Vary: Accept-Encoding`; the page refers to the script and
 * stylesheet by hashed names that are cached for a year as immutable, while the page itself (and
 * the plain app.js/app.css) is revalidated on every use. Requests go through node:http, which
 * (unlike fetch) hands back the bytes as sent, so the encodings are checked as they travel.
 */
import test from 'ava';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET without any decoding, with the given request headers only. */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(raw: Raw): Buffer {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw.body);
  if (encoding === 'gzip') return gunzipSync(raw.body);
  return raw.body;
}

/** The hashed names the page refers to. */
async function hashedNames() {
  const html = decoded(await get('/', { 'accept-encoding': 'gzip' })).toString('utf8');
  const script = /<script type="module" src="(\/dashboard\/app\.[0-9a-f]{16}\.js)"><\/script>/.exec(html)?.[1];
  const styles = /<link rel="stylesheet" href="(\/dashboard\/app\.[0-9a-f]{16}\.css)">/.exec(html)?.[1];
  return { html, script: script!, styles: styles! };
}

test('the page refers to the script and stylesheet by hashed names, and is itself revalidated every time', async (t) => {
  const { html, script, styles } = await hashedNames();
  t.truthy(script, 'the page names app.<hash>.js');
  t.truthy(styles, 'the page names app.<hash>.css');
  t.false(
    html.includes('/dashboard/app.js') || html.includes('/dashboard/app.css'),
    'no unhashed name is left in the page',
  );
  const page = await get('/', { 'accept-encoding': 'br, gzip' });
  t.is(page.headers['cache-control'], 'no-cache');
  t.is(page.headers.vary, 'Accept-Encoding');
  t.is(page.headers['content-encoding'], 'br');
  t.is(page.headers['content-type'], 'text/html; charset=utf-8');
});

test('the hashed files are immutable for a year, brotli or gzip per Accept-Encoding, each with its own ETag', async (t) => {
  const { script, styles } = await hashedNames();
  for (const path of [script, styles]) {
    const plain = await get(path, { 'accept-encoding': 'identity' });
    t.is(plain.status, 200, path);
    t.is(plain.headers['content-encoding'], undefined, `${path}: identity when only identity is accepted`);
    t.is(plain.headers['cache-control'], 'public, max-age=31536000, immutable', path);
    t.is(plain.headers.vary, 'Accept-Encoding', path);
    const etags = new Set([plain.headers.etag]);
    for (const [accept, encoding] of [
      ['gzip, deflate', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br', 'br'],
    ] as const) {
      const compressed = await get(path, { 'accept-encoding': accept });
      t.is(compressed.headers['content-encoding'], encoding, `${path} with ${accept}`);
      t.is(compressed.headers.vary, 'Accept-Encoding');
      t.is(compressed.headers['cache-control'], 'public, max-age=31536000, immutable');
      t.true(
        compressed.body.length < plain.body.length / 2,
        `${path} ${encoding}: ${compressed.body.length} of ${plain.body.length} bytes`,
      );
      t.deepEqual(decoded(compressed), plain.body, `${path} ${encoding} decodes to the file`);
      t.is(
        (await get(path, { 'accept-encoding': accept, 'if-none-match': compressed.headers.etag as string })).status,
        304,
      );
      etags.add(compressed.headers.etag);
    }
    t.is(etags.size, 3, `${path}: identity, gzip and br are distinct representations`);
  }
});

test("another build's hash is 404; the plain names still serve the same files, revalidated", async (t) => {
  const { script, styles } = await hashedNames();
  t.is((await get('/dashboard/app.0123456789abcdef.js')).status, 404);
  t.is((await get('/dashboard/app.0123456789abcdef.css')).status, 404);
  for (const [plainPath, hashedPath] of [
    ['/dashboard/app.js', script],
    ['/dashboard/app.css', styles],
  ] as const) {
    const plain = await get(plainPath, { 'accept-encoding': 'gzip' });
    t.is(plain.headers['cache-control'], 'no-cache', plainPath);
    t.is(plain.headers['content-encoding'], 'gzip', plainPath);
    t.deepEqual(decoded(plain), decoded(await get(hashedPath)), `${plainPath} is ${hashedPath}`);
  }
});

test('what the page weighs, as sent (for the README)', async (t) => {
  const { script, styles } = await hashedNames();
  const weights: Record<string, number> = {};
  for (const encoding of ['identity', 'gzip', 'br']) {
    let total = 0;
    for (const path of ['/', script, styles]) {
      const raw = await get(path, { 'accept-encoding': encoding });
      t.is(raw.headers['content-encoding'] ?? 'identity', encoding, `${path} ${encoding}`);
      total += raw.body.length;
    }
    weights[encoding] = total;
  }
  t.log(`page + script + stylesheet: ${JSON.stringify(weights)} bytes`);
  t.true(weights.br! < weights.identity! / 2.5 && weights.gzip! < weights.identity! / 2.5, JSON.stringify(weights));
});
