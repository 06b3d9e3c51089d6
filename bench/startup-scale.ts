/**
 * Start-up at scale: how long the platform takes to serve, and to bring every read model to the
 * head of the log, with N events in its embedded log (BENCH_EVENTS, a comma list, default
 * 1000000,10000000).
 *
 * The log is written through the platform's own SQLite event store adapter (the real append path:
 * serialised here, hash-chained and committed on its writer thread), in large group commits of
 * many multi-event appends: streams of notification channels, each a ChannelCreated and nine
 * ChannelUpdated, over 100 tenants. Then the platform starts as `npm start` does (compiled entry,
 * its V8 flags) on that DATA_DIR twice:
 * - cold: no read models yet, so every projection catches up from position 0;
 * - warm: stopped (SIGTERM) and started again, the read models already at the head.
 * Each start: milliseconds to the "is listening on" line, to /health/ready answering 200 (every
 * read model within HEALTH_MAX_PROJECTION_LAG of the head) and to every projection at lag 0
 * (every `projections[].position` of /health at the head position the appends returned; the
 * `lag` field there counted from the runner's own view of the head, not the log's). The data directory is deleted afterwards.
 * Catch-up figures: events per second from the start to every projection at the head (the
 * whole log over the time to caught up), with the 1-minute load average beside each start.
 *
 * Before and after in the same run: BENCH_BASELINE_DIR names a checkout of the code to compare
 * with (e.g. `git archive <commit> | tar -x -C /tmp/base` and a node_modules link); each log is
 * then cold-started by that code too, on the same log, right before this code's cold start (the
 * read models deleted in between). Each tree compiles into its own BUILD_CACHE_DIR under tmpdir.
 * Writes bench/results/startup-scale.json. Run: npx tsx bench/startup-scale.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePort } from '../test/support/platform-process.js';
import { APPENDS_PER_BATCH, EVENTS_PER_STREAM, generateChannelLog, TENANT_COUNT } from './support/channel-log.js';
import { machine } from './support/machine.js';

const COUNTS = (process.env.BENCH_EVENTS ?? '1000000,10000000').split(',').map(Number);
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;

const [, flags, entry] = /exec node (.*) (\S+\.m?[jt]s)$/.exec(
  JSON.parse(readFileSync('package.json', 'utf8')).scripts.start,
)!;

interface ProjectionHealth {
  name: string;
  position: string;
  lag: number;
}

async function startAndCatchUp(dataDir: string, head: bigint, start: 'cold' | 'warm', root = process.cwd()) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const load = loadavg()[0]!;
  const child = spawn(process.execPath, [...flags!.split(' '), join(root, entry!)], {
    cwd: root,
    env: {
      ...process.env,
      BUILD_CACHE_DIR: join(tmpdir(), `ww-bench-build-${basename(root)}`),
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: base,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const listening = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('is listening on')) resolve(performance.now() - t0);
    });
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}: ${output.slice(-2000)}`)));
  });
  let ready: number | undefined;
  let caughtUp: number | undefined;
  let lastBody: unknown;
  let notReady: unknown;
  while (caughtUp === undefined || ready === undefined) {
    const response = await fetch(`${base}/health`).catch(() => undefined);
    if (response) {
      const body = (await response.json()) as { projections?: ProjectionHealth[] };
      lastBody = body;
      if (response.status === 200 && ready === undefined) ready = performance.now() - t0;
      if (response.status !== 200) notReady = (body as { checks?: { projections?: unknown } }).checks?.projections;
      if (caughtUp === undefined && body.projections && body.projections.every((p) => BigInt(p.position) >= head))
        caughtUp = performance.now() - t0;
    }
    if (performance.now() - t0 > 3_600_000)
      throw new Error(`not caught up within an hour: ${JSON.stringify(lastBody)}`);
    if (caughtUp === undefined || ready === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  const rssMib = Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
  );
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  const events = Number(head);
  return {
    // A warm start has nothing to catch up: no rate.
    catch_up_events_per_s: start === 'warm' ? null : Math.round(events / (caughtUp / 1000)),
    load_average_1min: { at_start: +load.toFixed(2), at_head: +loadavg()[0]!.toFixed(2) },
    ms_to_listening: Math.round(listening),
    ms_to_health_ready_200: ready === undefined ? null : Math.round(ready),
    ms_to_every_projection_at_head: Math.round(caughtUp),
    rss_mib_at_head: rssMib,
    last_not_ready_projections_check: notReady ?? null,
    projections: (lastBody as { projections: ProjectionHealth[] }).projections.map((p) => p.name),
  };
}

async function main() {
  const runs = [];
  for (const events of COUNTS) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    try {
      const loadBefore = loadavg().map((l) => +l.toFixed(2));
      const log = await generateChannelLog(join(dataDir, 'events.db'), events);
      const { head, ...logFigures } = log;
      console.log(JSON.stringify({ generated: logFigures, head: String(head) }));
      let before: Awaited<ReturnType<typeof startAndCatchUp>> | undefined;
      if (BASELINE_DIR) {
        before = await startAndCatchUp(dataDir, head, 'cold', BASELINE_DIR);
        console.log(JSON.stringify({ events, cold_before: before }));
        for (const file of ['read-models.db', 'read-models.db-wal', 'read-models.db-shm'])
          rmSync(join(dataDir, file), { force: true });
      }
      const cold = await startAndCatchUp(dataDir, head, 'cold');
      console.log(JSON.stringify({ events, cold }));
      const readModelsMib = (statSync(join(dataDir, 'read-models.db'), { throwIfNoEntry: false })?.size ?? 0) / 2 ** 20;
      const warm = await startAndCatchUp(dataDir, head, 'warm');
      console.log(JSON.stringify({ events, warm }));
      runs.push({
        events,
        log: { ...logFigures, head_position: String(head) },
        read_models_db_mib: Math.round(readModelsMib),
        ...(before ? { cold_start_before: { code: BASELINE_DIR, ...before } } : {}),
        cold_start: cold,
        warm_restart: warm,
        load_average_1_5_15: { before: loadBefore, after: loadavg().map((l) => +l.toFixed(2)) },
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const results = {
      benchmark: 'startup-scale',
      date: new Date().toISOString(),
      machine: machine(),
      settings: {
        events_per_stream: EVENTS_PER_STREAM,
        appends_per_group_commit: APPENDS_PER_BATCH,
        tenants: TENANT_COUNT,
        platform_node_flags: flags!.split(' '),
        platform_entry: entry,
        log_level: 'warn',
      },
      runs,
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(process.env.BENCH_OUT ?? 'bench/results/startup-scale.json', `${JSON.stringify(results, null, 2)}\n`);
  }
  console.log(JSON.stringify(runs, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
