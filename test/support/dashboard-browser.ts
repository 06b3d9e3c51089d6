/**
 * The dashboard in a real browser for tests: Debian's Chromium driven by playwright-core against the
 * real platform (built-in identity provider, simulated warehouse) on a random port. Each test file
 * starts one with `startDashboard()`; `suite` skips (saying why) where Chromium is missing.
 * Screenshots go to test/artifacts/ (ignored by git) at 1280 and 390 px wide.
 */
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { issueToken } from '../../src/auth/embedded-idp.js';
import { loadOrCreateSigningKey } from '../../src/auth/signing-key.js';
import { loadConfig } from '../../src/config.js';
import { startPlatform, type PlatformOptions, type RunningPlatform } from '../../src/platform.js';
import { PGLITE_TEMPLATE_DIR } from './pglite-template-dir.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
/** Any audience works: the page reads it from /dashboard/config.json. */
export const BASE_URL = 'http://localhost:4324';
/** A deadline, not a wait: a busy machine (load 5–21 on 2 cores) needed more than 15 s for a page. */
export const DEADLINE_MS = 60_000;

export const hasChromium = existsSync(CHROMIUM);
export const suite = hasChromium ? test.serial : test.serial.skip;
export const skipped = hasChromium ? '' : ` (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`;

export interface Dashboard {
  platform: RunningPlatform;
  browser: Browser;
  /** A fresh page (1280×800 unless asked), its default timeout the deadline. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** The development client's token (owner of the development tenant). */
  token: string;
  /** Calls the API with the token; throws on a non-2xx answer; answers `data` (or the bare body). */
  api(method: string, path: string, body?: unknown, bearer?: string): Promise<any>;
  /** A token of a user of the development tenant, as the built-in identity provider would issue it. */
  userToken(userId: string): string;
  /** Signs in through the page with the development client (pasting the line `npm start` prints). */
  signIn(page: Page): Promise<void>;
  /** Screenshots of the page at 1280 and 390 px wide: `<name>-1280.png`, `<name>-390.png`. */
  shots(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** `options`: the platform's clock and escalation timers, for tests that drive them in virtual time. */
export async function startDashboard(
  env: Record<string, string> = {},
  options: PlatformOptions = {},
): Promise<Dashboard> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-'));
  const platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      SSE_HEARTBEAT_SECONDS: '1',
      SYNC_STREAM_PERIOD_SECONDS: '1',
      SYNC_SCHEDULER: 'off',
      // No background scrub (its thread at every start) unless a test asks, as test-app.ts does.
      SCRUB_INTERVAL_HOURS: '0',
      SYNC_EMBEDDED_TEMPLATE_DIR: PGLITE_TEMPLATE_DIR,
      ...env,
    }),
    options,
  );
  const client = platform.devClient!;
  const issued = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: BASE_URL,
    }),
  });
  const token = ((await issued.json()) as { access_token: string }).access_token;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    platform,
    browser,
    token,
    async newPage(viewport = { width: 1280, height: 800 }) {
      const page = await browser.newPage({ viewport });
      page.setDefaultTimeout(DEADLINE_MS);
      return page;
    },
    async api(method, path, body, bearer = token) {
      const response = await fetch(`${platform.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed = (await response.json()) as { data?: unknown };
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
      return parsed.data ?? parsed;
    },
    userToken(userId) {
      const key = loadOrCreateSigningKey(join(env.DATA_DIR ?? dataDir, 'idp-signing-key.pem'));
      return issueToken(key, {
        issuer: BASE_URL,
        audience: BASE_URL,
        subject: userId,
        claims: { tenant_id: client.tenant_id, env_id: client.env_id, user_id: userId },
      });
    },
    async signIn(page) {
      await page.goto(`${platform.url}/`);
      await page.getByLabel('Client id').fill(`client_id=${client.client_id}  client_secret=${client.client_secret}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('principal').waitFor();
    },
    async shots(page, name) {
      const viewport = page.viewportSize();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
      }
      if (viewport) await page.setViewportSize(viewport);
    },
    async close() {
      await browser.close();
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** axe-core's serious and critical violations on the page as it is now (rule id: how many nodes). */
export async function seriousAccessibilityViolations(page: Page): Promise<Record<string, number>> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays as it is.
  await page.evaluate(source);
  const results = await page.evaluate(async () =>
    (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }),
  );
  const found: Record<string, number> = {};
  for (const violation of results.violations as { id: string; impact: string; nodes: unknown[] }[]) {
    if (violation.impact === 'serious' || violation.impact === 'critical') found[violation.id] = violation.nodes.length;
  }
  return found;
}

/** How far the page sticks out sideways at `width` px (issue 29: every page fits 360 px); 0 when it fits. */
export async function sidewaysOverflow(page: Page, width: number): Promise<number> {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width, height: viewport?.height ?? 800 });
  const overflow = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  if (viewport) await page.setViewportSize(viewport);
  return overflow;
}
