/**
 * The background scrub's cost, and its effect on request latency (issue 39 item 3), for logs of
 * N events (BENCH_EVENTS, a comma list, default 100000,300000; `BENCH_EVENTS=1000000` for 1 M):
 * 1. its two parts alone, here: SQLite's page check of events.db (src/sqlite/page-check.ts) and the
 *    walk over every stream's chain (src/eventstore/chain-walk.ts), wall time and this process's CPU;
 * 2. the platform as `npm start` runs it (compiled), read models caught up first, scrubbing every
 *    few seconds (SCRUB_INTERVAL_HOURS set so a quiet window follows each scrub): an open loop of
 *    BENCH_RATE (default 100) GETs per second of a tenant's channel list, with a token, through
 *    start-up's scrub, a quiet window, and the next scrub. Latency p50/p99/max of the GETs sent
 *    in the quiet windows and of those sent while the scrubs after it ran (BENCH_SCRUBS, default 2),
 *    side by side, and the platform's CPU in each (from /proc). Scrub start and end come from its
 *    log lines.
 * The log is written by bench/support/channel-log.ts. Writes bench/results/scrub.json.
 * Run: npx tsx bench/scrub.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { walkLogChain } from '../src/eventstore/chain-walk.js';
import { openSqliteLogReader } from '../src/eventstore/sqlite-log-reader.js';
import { checkPages } from '../src/sqlite/page-check.js';
import { devToken, freePort } from '../test/support/platform-process.js';
import { generateChannelLog } from './support/channel-log.js';
import { machine, percentile } from './support/machine.js';

const COUNTS = (process.env.BENCH_EVENTS ?? '100000,300000').split(',').map(Number);
const RATE = Number(process.env.BENCH_RATE ?? 100);
/** Scrubs measured after start-up's, each after a quiet window of the same length or more. */
const CYCLES = Number(process.env.BENCH_SCRUBS ?? 2);
const [, flags, entry] = /exec node (.*) (\S+\.m?[jt]s)$/.exec(
  JSON.parse(readFileSync('package.json', 'utf8')).scripts.start,
)!;
// The compiled build goes to a directory of its own, not the shared node_modules/.cache.
const buildCache = mkdtempSync(join(tmpdir(), 'ww-bench-build-'));
const load = () => loadavg().map((l) => +l.toFixed(2));
const seconds = (ms: number) => +(ms / 1000).toFixed(2);
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
};

async function partsAlone(dataDir: string) {
  const file = join(dataDir, 'events.db');
  const cpu0 = process.cpuUsage();
  let started = performance.now();
  const pages = checkPages(file);
  const pageMs = performance.now() - started;
  const cpu1 = process.cpuUsage(cpu0);
  const log = openSqliteLogReader({ filename: file, onCommit: () => () => {} });
  started = performance.now();
  const walk = await walkLogChain(log);
  const walkMs = performance.now() - started;
  const cpu2 = process.cpuUsage(cpu0);
  await log.close();
  if (pages.problems.length > 0 || walk.breaks.length > 0) throw new Error('the generated log is not intact');
  return {
    page_check_s: seconds(pageMs),
    page_check_cpu_s: seconds((cpu1.user + cpu1.system) / 1000),
    chain_walk_s: seconds(walkMs),
    chain_walk_cpu_s: seconds((cpu2.user + cpu2.system - cpu1.user - cpu1.system) / 1000),
    chain_walk_events_per_s: Math.round(walk.totals.events / (walkMs / 1000)),
  };
}

function startPlatform(dataDir: string, port: number, scrubHours: number) {
  const child = spawn(process.execPath, [...flags!.split(' '), entry!], {
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      BUILD_CACHE_DIR: buildCache,
      SCRUB_INTERVAL_HOURS: String(scrubHours),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const scrubs: { end: number; durationMs: number }[] = [];
  child.stderr!.on('data', (chunk) => (output += chunk));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      for (const line of chunk.toString().split('\n')) {
        if (line.includes('is listening on')) resolve();
        if (line.includes('"scrub clean"')) {
          const { time, durationMs } = JSON.parse(line) as { time: number; durationMs: number };
          scrubs.push({ end: time, durationMs });
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}: ${output.slice(-2000)}`)));
  });
  const stop = () => {
    child.kill('SIGTERM');
    return new Promise((resolve) => child.once('exit', resolve));
  };
  return { child, listening, scrubs, stop };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const figures = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50_ms: +percentile(sorted, 50).toFixed(2),
    p99_ms: +percentile(sorted, 99).toFixed(2),
    max_ms: +(sorted.at(-1) ?? NaN).toFixed(2),
  };
};

async function latencyBesideScrub(dataDir: string, alone: { page_check_s: number; chain_walk_s: number }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Read models caught up first, without a scrub, so the measured run does no catch-up.
  const warm = startPlatform(dataDir, port, 0);
  await warm.listening;
  await until(async () => (await fetch(`${base}/health/ready`)).status === 200, 1_800_000, 'read models');
  await warm.stop();

  // Quiet windows of at least 20 s, and longer than the scrub itself, between scrubs.
  const quietMs = Math.max(20_000, 2000 * (alone.page_check_s + alone.chain_walk_s));
  const platform = startPlatform(dataDir, port, quietMs / 3_600_000);
  await platform.listening;
  const headers = { authorization: `Bearer ${await devToken(base, dataDir)}` };
  const sent: { at: number; ms: number; status: number }[] = [];
  const cpu: { at: number; s: number }[] = [];
  const pid = platform.child.pid!;
  const sampler = setInterval(() => cpu.push({ at: Date.now(), s: cpuSeconds(pid) }), 250);
  let inFlight = 0;
  const pacer = setInterval(() => {
    inFlight++;
    const at = Date.now();
    const started = performance.now();
    void fetch(`${base}/api/v1/notification-channels?limit=20`, { headers })
      .then(async (answer) => {
        await answer.arrayBuffer();
        sent.push({ at, ms: performance.now() - started, status: answer.status });
      })
      .finally(() => inFlight--);
  }, 1000 / RATE);
  await until(() => platform.scrubs.length >= 1 + CYCLES, 3_600_000, 'the scrubs');
  clearInterval(pacer);
  clearInterval(sampler);
  await until(() => inFlight === 0, 60_000, 'the last GETs');
  await platform.stop();

  // Each measured scrub, and the quiet window between the previous one's end and its start.
  const cycles = platform.scrubs.slice(1).map((scrub, i) => ({
    scrubbing: { from: scrub.end - scrub.durationMs, to: scrub.end },
    quiet: { from: platform.scrubs[i]!.end + 2000, to: scrub.end - scrub.durationMs - 1000 },
  }));
  const within = (spans: { from: number; to: number }[]) =>
    sent.filter((request) => spans.some((span) => request.at >= span.from && request.at <= span.to));
  const cpuIn = (spans: { from: number; to: number }[]) => {
    let used = 0;
    let ms = 0;
    for (const span of spans) {
      const inside = cpu.filter((sample) => sample.at >= span.from && sample.at <= span.to);
      used += inside.at(-1)!.s - inside[0]!.s;
      ms += inside.at(-1)!.at - inside[0]!.at;
    }
    return { cpu_s: +used.toFixed(2), cpu_cores: +(used / (ms / 1000)).toFixed(2) };
  };
  const phase = (spans: { from: number; to: number }[]) => ({
    window_s: seconds(spans.reduce((sum, span) => sum + span.to - span.from, 0)),
    ...figures(within(spans).map((r) => r.ms)),
    ...cpuIn(spans),
  });
  return {
    scrub_in_platform_s: platform.scrubs.slice(1).map((scrub) => seconds(scrub.durationMs)),
    non_2xx: sent.filter((request) => request.status !== 200).length,
    quiet: phase(cycles.map((cycle) => cycle.quiet)),
    scrubbing: phase(cycles.map((cycle) => cycle.scrubbing)),
  };
}

const results = [];
try {
  for (const events of COUNTS) {
    const dataDir = mkdtempSync(join(tmpdir(), 'ww-bench-scrub-'));
    try {
      const written = await generateChannelLog(join(dataDir, 'events.db'), events);
      const log = { ...written, head: String(written.head) };
      console.log(`${events} events: log written in ${log.seconds} s (${log.events_db_mib} MiB), load ${load()}`);
      const alone = await partsAlone(dataDir);
      console.log(`  alone: ${JSON.stringify(alone)}, load ${load()}`);
      const beside = await latencyBesideScrub(dataDir, alone);
      console.log(`  beside GETs at ${RATE}/s: ${JSON.stringify(beside)}, load ${load()}`);
      results.push({ events, log, alone, beside_requests: beside, load_after: load() });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(buildCache, { recursive: true, force: true });
}
writeFileSync(
  process.env.BENCH_OUT ?? 'bench/results/scrub.json',
  `${JSON.stringify({ machine: machine(), get_rate_per_s: RATE, measured_scrubs: CYCLES, results }, null, 2)}\n`,
);
