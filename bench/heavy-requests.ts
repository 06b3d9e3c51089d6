/**
 * Heavy requests against /health (issue 36, item 1): the platform as `npm run dev` runs it (a child
 * process, embedded stores), one tenant holding the maxima: 100 people, 50 schedules of 10
 * layers × 100 people and 500 overrides, and 50 more of 10 layers without overrides (100 schedules),
 * and a saved policy of 20 stages × the 50 large schedules repeating every 30 minutes. While each
 * scenario runs, a prober sends GET /health/live one after another (10 ms apart) and records how
 * long each waited. Scenarios:
 * - `preview`: one GET …/{id}/preview?cycles=5 of the maximal policy (the budget raised to
 *   10,000,000 units so that it runs; by default it is a 422);
 * - `analytics`: three GET /analytics/oncall over 365 days at once (the three viewers);
 * - `ten_previews`: ten of the maximal previews at once (the 4 min 51 s); skipped with
 *   BENCH_HEAVY_QUICK=1 (the code before the fix takes minutes).
 *
 *   npx tsx bench/heavy-requests.ts                       (this checkout)
 *   BENCH_PLATFORM_DIR=/tmp/base npx tsx bench/heavy-requests.ts   (another checkout: the "before")
 *
 * Writes bench/results/heavy-requests.json, keyed by BENCH_LABEL (default `after`), keeping the
 * other labels already in the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { devToken, freePort } from '../test/support/platform-process.js';
import { machine, percentile } from './support/machine.js';

const PLATFORM_DIR = resolve(process.env.BENCH_PLATFORM_DIR ?? '.');
const LABEL = process.env.BENCH_LABEL ?? 'after';
const QUICK = process.env.BENCH_HEAVY_QUICK === '1';
const RESULTS = 'bench/results/heavy-requests.json';
const AT = '2026-06-01T09:00:00.000Z';

async function startPlatform(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: PLATFORM_DIR,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SYNC_SCHEDULER: 'off',
      ESCALATION_PREVIEW_WORK_UNITS: '10000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('is listening on') && done());
    child.once('exit', (code) => fail(new Error(`platform exited with ${code}`)));
  });
  return child;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-heavy-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await startPlatform(dataDir, port);
  try {
    const token = await devToken(base, dataDir);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text.length > 0 && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
      };
    };
    const created = async (path: string, body: unknown) => {
      const answer = await call('POST', path, body);
      if (answer.status !== 201)
        throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      return answer.body.data.id as string;
    };

    const seedStarted = performance.now();
    const users: string[] = [];
    for (let index = 0; index < 100; index++)
      users.push(await created('/api/v1/users', { email: `bench-${index}@example.com`, name: `Bench ${index}` }));
    const schedule = (overrides: number) => ({
      name: `rota ${Math.random()}`,
      timezone: 'Europe/Berlin',
      layers: Array.from({ length: 10 }, (_, index) => ({
        user_ids: users,
        rotation_type: 'daily',
        start_time: `2026-01-01T0${index}:00:00Z`,
      })),
      overrides: Array.from({ length: overrides }, (_, index) => ({
        user_id: users[index % 100],
        start: new Date(Date.parse(AT) + index * 3_600_000).toISOString(),
        end: new Date(Date.parse(AT) + (index + 1) * 3_600_000).toISOString(),
      })),
    });
    const large: string[] = [];
    for (let index = 0; index < 50; index++) large.push(await created('/api/v1/schedules', schedule(500)));
    for (let index = 0; index < 50; index++) await created('/api/v1/schedules', schedule(0));
    const policy = await created('/api/v1/escalation-policies', {
      name: 'maximal',
      stages: Array.from({ length: 20 }, (_, index) => ({
        stage_order: index + 1,
        delay_minutes: index === 0 ? 0 : 10,
        targets: large.map((id) => ({ type: 'schedule', id, channels: ['email'] })),
      })),
      repeat_interval_minutes: 30,
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    /** Runs `heavy` requests at once while /health/live is probed one after another; the figures of both. */
    const scenario = async (name: string, heavy: () => Promise<{ status: number }>[]) => {
      let running = true;
      const waits: number[] = [];
      const prober = (async () => {
        while (running) {
          const sent = performance.now();
          await fetch(`${base}/health/live`).then((r) => r.arrayBuffer());
          waits.push(performance.now() - sent);
          await new Promise((done) => setTimeout(done, 10));
        }
      })();
      await new Promise((done) => setTimeout(done, 100));
      const started = performance.now();
      const answers = await Promise.all(
        heavy().map(async (request) => {
          const answer = await request;
          return { status: answer.status, seconds: (performance.now() - started) / 1000 };
        }),
      );
      running = false;
      await prober;
      const sorted = [...waits].sort((a, b) => a - b);
      const figures = {
        heavy_seconds: Math.round(Math.max(...answers.map((a) => a.seconds)) * 1000) / 1000,
        statuses: answers.map((a) => a.status),
        health_probes: waits.length,
        health_max_ms: Math.round(sorted[sorted.length - 1]! * 10) / 10,
        health_p99_ms: Math.round(percentile(sorted, 99) * 10) / 10,
        health_p50_ms: Math.round(percentile(sorted, 50) * 10) / 10,
      };
      console.log(name, JSON.stringify(figures));
      return figures;
    };

    const preview = () => call('GET', `/api/v1/escalation-policies/${policy}/preview?at=${AT}&cycles=5`);
    const analytics = () =>
      call('GET', '/api/v1/analytics/oncall?since=2026-01-01T00:00:00Z&until=2027-01-01T00:00:00Z');
    const scenarios: Record<string, unknown> = {
      preview: await scenario('preview', () => [preview()]),
      analytics: await scenario('analytics', () => [analytics(), analytics(), analytics()]),
    };
    if (!QUICK) scenarios.ten_previews = await scenario('ten_previews', () => Array.from({ length: 10 }, preview));

    const results = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
    results[LABEL] = {
      measured_at: new Date().toISOString(),
      platform_dir: PLATFORM_DIR,
      machine: machine(),
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      seed_seconds: Math.round(seedSeconds * 10) / 10,
      ...scenarios,
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
