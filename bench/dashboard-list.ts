/**
 * How fast the dashboard's incident list renders, and what the page weighs: the platform with N
 * open incidents (BENCH_INCIDENTS, a comma list, default 500,2000), the page in Debian's Chromium
 * (playwright-core, as test/support/dashboard-browser.ts drives it).
 *
 * Seeding goes through the API: N alert rules over the simulator's pinned queue_time_seconds, each
 * triggering its incident (one-stage policy paging a user by email), the evaluator every 5 s.
 * Then the platform is stopped and started again on the same DATA_DIR with the evaluator once a
 * day, so N rules' evaluations do not run beside the measurement.
 *
 * Each sample: a signed-in tab goes to about:blank, then to `/#/incidents` (the default view: open
 * incidents, worst first); the time is the page's own `performance.now()` (milliseconds since the
 * navigation started) at the first animation frame in which the list is `listed` with its first
 * page of rows (200, or N if fewer) in the DOM. The first load (esbuild bundles the page in memory
 * on its first request) is reported apart and not among the samples. The page weight is what the
 * navigation and its resources transferred (compressed) and decoded, from the Resource Timing API.
 *
 * Writes bench/results/dashboard-list.json. Run: npx tsx bench/dashboard-list.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';
import { waitFor } from '../test/support/wait-for.js';
import { machine, percentile } from './support/machine.js';

const COUNTS = (process.env.BENCH_INCIDENTS ?? '500,2000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 10);
const BASE_URL = 'http://localhost:4324';
/** Debian's Chromium, as the browser tests use (test/support/dashboard-browser.ts, which only ava may import). */
const CHROMIUM = '/usr/bin/chromium';
const FIRST_PAGE = 200;

const start = (dataDir: string, evaluationSeconds: number) =>
  startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      SYNC_SCHEDULER: 'off',
      ALERT_EVALUATION_INTERVAL_SECONDS: String(evaluationSeconds),
    }),
  );

async function tokenOf(platform: RunningPlatform): Promise<string> {
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
  return ((await issued.json()) as { access_token: string }).access_token;
}

function apiOf(platform: RunningPlatform, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${platform.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await response.json()) as { data?: unknown; page?: { next_cursor: string | null } };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
    return parsed;
  };
}

async function countOpen(api: ReturnType<typeof apiOf>): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const answer = await api(
      'GET',
      `/api/v1/incidents?status=triggered,acknowledged&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    count += (answer.data as unknown[]).length;
    cursor = answer.page?.next_cursor ?? null;
  } while (cursor);
  return count;
}

async function seed(dataDir: string, incidents: number) {
  const started = performance.now();
  // Every 5 s: a tick over 2,000 rules being created takes 1–1.5 s here, and a tick slower than the
  // interval can stop the evaluator for good (node-schedule drops a job planned for `now + 1 ms`
  // once that instant has passed: src/process/evaluator-schedule.ts).
  const platform = await start(dataDir, 5);
  const api = apiOf(platform, await tokenOf(platform));
  const user = (
    await api('POST', '/api/v1/users', {
      email: 'oncall@example.com',
      name: 'On Call',
      role_id: 'responder',
      group_ids: [],
    })
  ).data as { id: string };
  const policy = (
    await api('POST', '/api/v1/escalation-policies', {
      name: 'Bench',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'user', id: user.id, channels: ['email'] }] }],
    })
  ).data as { id: string };
  await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 95, duration_seconds: 86_400 });
  const severities = ['critical', 'high', 'medium', 'low'];
  console.error(`seeding: ${incidents} rules`);
  for (let i = 0; i < incidents; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, incidents - i) }, (_, j) =>
        api('POST', '/api/v1/alert-rules', {
          name: `Queue wait ${i + j + 1}`,
          metric: 'queue_time_seconds',
          condition: 'gt',
          threshold: 30,
          evaluation_window_minutes: 0,
          severity: severities[(i + j) % 4],
          escalation_policy_id: policy.id,
        }),
      ),
    );
  }
  let open = 0;
  await waitFor(
    async () => {
      const now = await countOpen(api);
      if (now !== open) console.error(`seeding: ${now} of ${incidents} incidents open`);
      open = now;
      return open >= incidents;
    },
    { timeoutMs: 600_000, intervalMs: 2000, message: `${incidents} open incidents` },
  );
  await platform.stop();
  return +((performance.now() - started) / 1000).toFixed(1);
}

/** Milliseconds from navigation start to the first frame with the list's first page of rows. */
async function sample(page: Page, url: string, rows: number): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${url}/#/incidents`);
  const handle = await page.waitForFunction(
    (n) => {
      const doc = (globalThis as any).document;
      const list = doc.querySelector('[data-testid="incident-list"][data-list-state="listed"]');
      return list && list.querySelectorAll('tr[data-incident-id]').length >= n
        ? (globalThis as any).performance.now()
        : false;
    },
    rows,
    { polling: 'raf', timeout: 60_000 },
  );
  return Math.round((await handle.jsonValue()) as number);
}

async function weight(page: Page) {
  return page.evaluate(() => {
    const perf = (globalThis as any).performance;
    const entries = [...perf.getEntriesByType('navigation'), ...perf.getEntriesByType('resource')].filter(
      (e: any) => !String(e.name).includes('/api/'),
    );
    return {
      files: entries.map((e: any) => new URL(e.name).pathname),
      transfer_bytes: entries.reduce((sum: number, e: any) => sum + e.transferSize, 0),
      decoded_bytes: entries.reduce((sum: number, e: any) => sum + e.decodedBodySize, 0),
    };
  });
}

async function measure(incidents: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-bench-dashboard-'));
  try {
    const seedSeconds = await seed(dataDir, incidents);
    const platform = await start(dataDir, 86_400);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const client = platform.devClient!;
      await page.goto(`${platform.url}/`);
      await page.getByLabel('Client id').fill(`client_id=${client.client_id}  client_secret=${client.client_secret}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('principal').waitFor({ timeout: 60_000 });
      const rows = Math.min(incidents, FIRST_PAGE);
      const first = await sample(page, platform.url, rows);
      // A cold cache's weight: the compressed files as a first visit fetches them.
      await context.clearCookies();
      const cold = await browser.newContext();
      const coldPage = await cold.newPage();
      await coldPage.goto(`${platform.url}/`);
      await coldPage.getByLabel('Client id').waitFor();
      const pageWeight = await weight(coldPage);
      await cold.close();
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) samples.push(await sample(page, platform.url, rows));
      const sorted = [...samples].sort((a, b) => a - b);
      const result = {
        incidents,
        rows_rendered: rows,
        seed_seconds: seedSeconds,
        first_load_ms: first,
        samples_ms: samples,
        median_ms: percentile(sorted, 50),
        p90_ms: percentile(sorted, 90),
        min_ms: sorted[0],
        max_ms: sorted.at(-1),
        page_weight: pageWeight,
      };
      console.log(JSON.stringify(result));
      return result;
    } finally {
      await browser.close();
      await platform.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs = [];
const loadBefore = loadavg()[0] ?? 0;
for (const incidents of COUNTS) runs.push(await measure(incidents));
const out = join('bench', 'results', 'dashboard-list.json');
mkdirSync(join('bench', 'results'), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      benchmark: 'dashboard-list',
      date: new Date().toISOString(),
      machine: machine(),
      load_average_1m: { before: +loadBefore.toFixed(1), after: +(loadavg()[0] ?? 0).toFixed(1) },
      settings: {
        browser: CHROMIUM,
        viewport: '1280x800',
        samples: SAMPLES,
        view: '#/incidents (open, worst first)',
        measured: 'performance.now() at the first animation frame with the list listed and its first page of rows',
      },
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${out}`);
