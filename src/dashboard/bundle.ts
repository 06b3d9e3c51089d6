/**
 * The dashboard's script, bundled from src/dashboard/web with esbuild's API when it is first asked
 * for (about a tenth of a second), then kept in memory: `npm start` and the tests need no build
 * step, and a platform that nobody opens in a browser never pays for it. A failed build is not
 * remembered, so the next request tries again.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The browser code (its own tsconfig: DOM library, Preact JSX). */
export const DASHBOARD_WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), 'web');

export interface DashboardAsset {
  body: string;
  contentType: string;
  /** A strong validator: the hash of the body. */
  etag: string;
}

const asset = (body: string, contentType: string): DashboardAsset => ({
  body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
});

async function bundleScript(): Promise<DashboardAsset> {
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
  return asset(result.outputFiles[0]!.text, 'text/javascript; charset=utf-8');
}

export function dashboardBundle() {
  let script: Promise<DashboardAsset> | undefined;
  let page: DashboardAsset | undefined;
  let styles: DashboardAsset | undefined;
  return {
    script(): Promise<DashboardAsset> {
      script ??= bundleScript().catch((error: unknown) => {
        script = undefined;
        throw error;
      });
      return script;
    },
    page: () => (page ??= asset(readFileSync(join(DASHBOARD_WEB_DIR, 'index.html'), 'utf8'), 'text/html; charset=utf-8')),
    styles: () => (styles ??= asset(readFileSync(join(DASHBOARD_WEB_DIR, 'app.css'), 'utf8'), 'text/css; charset=utf-8')),
  };
}

export type DashboardBundle = ReturnType<typeof dashboardBundle>;
