/**
 * The dashboard's files, built when the page is first asked for (about a tenth of a second for
 * esbuild, a little more for brotli), then kept in memory: `npm start` and the tests need no build
 * step, and a platform that nobody opens in a browser never pays for it. A failed build is not
 * remembered, so the next request tries again.
 *
 * Each file is kept as it is and precompressed (brotli and gzip, node:zlib at their highest
 * levels, once per build rather than per request). The script and the stylesheet are named by a
 * hash of their content (`app.<hash>.js`), which the page refers to, so browsers may keep them
 * for a year without asking again; the page itself is revalidated on every load.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** The browser code (its own tsconfig: DOM library, Preact JSX). */
export const DASHBOARD_WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), 'web');

/** The encodings a file is kept in, best first. */
export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface EncodedBody {
  body: Buffer;
  /** A strong validator: the hash of these very bytes (each encoding is its own representation). */
  etag: string;
}

export interface DashboardAsset {
  contentType: string;
  /** The hash of the uncompressed content: the file's name for the immutable URL. */
  hash: string;
  /** Compressed encodings are kept only where they are smaller than the file itself. */
  encodings: Partial<Record<Encoding, EncodedBody>> & { identity: EncodedBody };
}

export interface DashboardBuild {
  page: DashboardAsset;
  script: DashboardAsset;
  styles: DashboardAsset;
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest();
const encoded = (body: Buffer): EncodedBody => ({ body, etag: `"${digest(body).toString('base64url').slice(0, 22)}"` });
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function asset(text: string, contentType: string): Promise<DashboardAsset> {
  const body = Buffer.from(text, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipped(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  const encodings: DashboardAsset['encodings'] = { identity: encoded(body) };
  if (br.length < body.length) encodings.br = encoded(br);
  if (gz.length < body.length) encodings.gzip = encoded(gz);
  return { contentType, hash: digest(body).toString('hex').slice(0, 16), encodings };
}

/** The hashed file names the page refers to. */
export const scriptPath = (script: DashboardAsset) => `/dashboard/app.${script.hash}.js`;
export const stylesPath = (styles: DashboardAsset) => `/dashboard/app.${styles.hash}.css`;

/** index.html with its references to app.js and app.css replaced by the hashed names. */
function pageReferring(html: string, script: DashboardAsset, styles: DashboardAsset): string {
  const references: [string, string][] = [
    ['src="/dashboard/app.js"', `src="${scriptPath(script)}"`],
    ['href="/dashboard/app.css"', `href="${stylesPath(styles)}"`],
  ];
  for (const [plain, hashed] of references) {
    if (!html.includes(plain)) throw new Error(`index.html does not refer to ${plain}`);
    html = html.replace(plain, hashed);
  }
  return html;
}

async function bundleScript(): Promise<string> {
  const result = await build({
    entryPoints: [join(DASHBOARD_WEB_DIR, 'main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
    legalComments: 'none',
  });
  return result.outputFiles[0]!.text;
}

async function buildDashboard(): Promise<DashboardBuild> {
  const [scriptText, stylesText, html] = await Promise.all([
    bundleScript(),
    readFile(join(DASHBOARD_WEB_DIR, 'app.css'), 'utf8'),
    readFile(join(DASHBOARD_WEB_DIR, 'index.html'), 'utf8'),
  ]);
  const [script, styles] = await Promise.all([
    asset(scriptText, 'text/javascript; charset=utf-8'),
    asset(stylesText, 'text/css; charset=utf-8'),
  ]);
  return { script, styles, page: await asset(pageReferring(html, script, styles), 'text/html; charset=utf-8') };
}

export function dashboardBundle() {
  let built: Promise<DashboardBuild> | undefined;
  return {
    /** The page, script and stylesheet of this build (built on the first call). */
    build(): Promise<DashboardBuild> {
      built ??= buildDashboard().catch((error: unknown) => {
        built = undefined;
        throw error;
      });
      return built;
    },
  };
}

export type DashboardBundle = ReturnType<typeof dashboardBundle>;
