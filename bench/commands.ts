/**
 * Command and query throughput on the embedded stores with full durability, against a bare Koa
 * hello-world measured in the same run, plus append-to-visible projection lag.
 * Writes bench/results/commands.json. Run: npm run bench (or npx tsx bench/commands.ts).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { channelsProjection } from '../projections/channels.js';
import { secretBox } from '../src/secrets/secret-box.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createProjectionRunner } from '../src/projection/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { devToken, freePort } from '../test/support/platform-process.js';
import { machine, percentile } from './support/machine.js';

const channels = channelsProjection(secretBox(randomBytes(32)));

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function startProcess(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('is listening on') && resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return child;
}

async function load(options: autocannon.Options) {
  // Warm up first (JIT, caches, the JWKS fetch), then measure.
  await autocannon({ duration: 2, connections: CONNECTIONS, ...options });
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...options });
  return {
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

async function projectionLag() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lag-'));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'events.db') });
  const readStore = openSqliteReadStore(join(dir, 'read.db'));
  const runner = createProjectionRunner({ eventStore, readStore, projections: [channels], logger: pino({ level: 'silent' }) });
  await runner.start();
  const lags: number[] = [];
  const metadata = { tenantId: '00000000-0000-4000-8000-000000000001', actor: 'bench', correlationId: 'c', causationId: 'c', occurredAt: new Date().toISOString() };
  let n = 0;
  const writer = async () => {
    while (n < 5000) {
      const id = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
      const { position } = await eventStore.append(`channel-${id}`, [
        { type: 'ChannelCreated', data: { channelId: id, name: 'x', type: 'email', config: { recipients: ['a@b.co'], subject_template: 's' } }, metadata },
      ]);
      const acknowledged = performance.now();
      await runner.waitFor(position, 10_000);
      lags.push(performance.now() - acknowledged);
    }
  };
  await Promise.all(Array.from({ length: 20 }, writer));
  await runner.stop();
  await eventStore.close();
  await readStore.close();
  lags.sort((a, b) => a - b);
  return { appends: lags.length, concurrent_writers: 20, p50_ms: +percentile(lags, 50).toFixed(2), p99_ms: +percentile(lags, 99).toFixed(2) };
}

async function main() {
  const helloPort = await freePort();
  const hello = await startProcess('bench/support/hello-koa.ts', { PORT: String(helloPort) });
  const bareKoa = await load({ url: `http://127.0.0.1:${helloPort}/` });
  hello.kill('SIGTERM');

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-platform-'));
  const platform = await startProcess('src/main.ts', { PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const token = await devToken(baseUrl, dataDir);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ name: 'bench', type: 'email', config: { recipients: ['oncall@example.com'], subject_template: '[{{severity}}] {{rule}}' } });
  const create = await load({ url: `${baseUrl}/api/v1/notification-channels`, method: 'POST', headers, body });
  const list = await load({ url: `${baseUrl}/api/v1/notification-channels?limit=20`, headers });
  platform.kill('SIGTERM');

  const lag = await projectionLag();
  const results = {
    benchmark: 'commands',
    date: new Date().toISOString(),
    machine: machine(),
    settings: { duration_seconds: DURATION, connections: CONNECTIONS, durability: 'SQLite WAL, synchronous=FULL, group commit' },
    bare_koa_hello_world: bareKoa,
    create_notification_channel: { ...create, ratio_to_bare_koa: +(create.requests_per_second / bareKoa.requests_per_second).toFixed(3) },
    list_notification_channels: { ...list, ratio_to_bare_koa: +(list.requests_per_second / bareKoa.requests_per_second).toFixed(3) },
    append_to_visible_projection_lag: lag,
    targets: { create_ratio_min: 0.25, projection_lag_p99_ms_max: 20 },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/commands.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
