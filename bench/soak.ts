/**
 * Soak: the mixed load of issue 27 for BENCH_SOAK_MINUTES (default 60) against the platform started
 * like `npm start` (compiled entry, its V8 flags, default log level), on embedded stores.
 *
 * The load, about BENCH_SOAK_RATE (default 200) requests/s from autocannon at a fixed overall rate
 * (10 connections), cycles through: create a notification channel, get it, list channels, list
 * incidents, get an incident, add a note to one, list alert rules, list channels again. Beside it:
 * one incident stream consumer (SSE, reconnecting if it ends), a short-lived stream opened with a
 * fresh stream ticket every 30 s, and the evaluator ticking every 5 s over 40 rules on the simulated
 * warehouse; a pinned metric that flips every 2 minutes makes 20 of them trigger and resolve
 * incidents (and escalations) over and over. A fresh token is taken every window.
 *
 * Every 15 s: RSS and its kinds (anonymous, file-backed, shared) and threads (/proc), the main
 * thread's V8 heap used and total, external and ArrayBuffer memory and event-loop lag p99 (/metrics),
 * and off_heap_mib = RSS − V8 heap total (native memory, worker threads' heaps, code). Per window of
 * BENCH_SOAK_WINDOW_MINUTES (default 10): latency p50/p99, requests, errors, the samples' figures,
 * the data files' sizes and, where gdb is installed (BENCH_SOAK_GDB=0 to skip), glibc malloc's
 * totals: in use (SQLite's page caches, Buffers, zlib...) and freed but kept. At the end, what
 * malloc_trim(0) gives back. After the first window (warm-up): the slopes of RSS, off-heap, anonymous
 * RSS and heap used (MiB/min, least squares). Writes bench/results/soak.json (BENCH_OUT to change).
 * To find which load part memory follows: BENCH_SOAK_WRITES=0 (reads instead of the two writes),
 * BENCH_SOAK_STREAMS=0 (no SSE), BENCH_SOAK_RULES=N (default 40), BENCH_SOAK_LOG_LEVEL; the
 * platform inherits the environment (e.g. MALLOC_ARENA_MAX). Run: npx tsx bench/soak.ts
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { devToken, freePort } from '../test/support/platform-process.js';
import { machine } from './support/machine.js';
import { gdbAvailable, mallocFigures, residentMemory, trimMalloc } from './support/soak-memory.js';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
const WINDOW_MINUTES = Number(process.env.BENCH_SOAK_WINDOW_MINUTES ?? 10);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 200);
const SAMPLE_SECONDS = 15;
/** Load parts that can be turned off to find which one memory follows (1 = on). */
const WRITES = process.env.BENCH_SOAK_WRITES !== '0';
const STREAMS = process.env.BENCH_SOAK_STREAMS !== '0';
const RULES = Number(process.env.BENCH_SOAK_RULES ?? 40);
const LOG_LEVEL = process.env.BENCH_SOAK_LOG_LEVEL;
const GDB = gdbAvailable();
const MiB = 2 ** 20;

const [, flags, entry] = /exec node (.*) (\S+\.m?[jt]s)$/.exec(
  JSON.parse(readFileSync('package.json', 'utf8')).scripts.start,
)!;

async function startPlatform(dataDir: string, port: number) {
  delete process.env.LOG_LEVEL; // the default level, as `npm start` runs
  if (LOG_LEVEL) process.env.LOG_LEVEL = LOG_LEVEL;
  const child = spawn(process.execPath, [...flags!.split(' '), entry!], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      ALERT_EVALUATION_INTERVAL_SECONDS: '5',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let logged = 0;
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      logged += chunk.length; // the info log is read and dropped, as a log shipper would
      if (chunk.toString().includes('is listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)));
  });
  return { child, loggedBytes: () => logged };
}

const metricOf = (text: string, name: string) =>
  Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}

const body = JSON.stringify({
  name: 'soak',
  type: 'email',
  config: { recipients: ['oncall@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
});
/** The platform, stopped however the run ends (an orphan would keep loading the machine). */
let running: ReturnType<typeof spawn> | undefined;

async function main() {
  const loadBefore = loadavg().map((l) => +l.toFixed(2));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const platform = await startPlatform(dataDir, port);
  running = platform.child;
  const pid = platform.child.pid!;
  let token = await devToken(base, dataDir);
  const headers = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text).data;
  };

  // Rules: 20 on a metric the bench flips over and under their threshold, 20 that never trigger.
  const envId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).env_id as string;
  const cluster = simulatedClusters(envId)[0]!.id;
  const channel = await api('POST', '/notification-channels', JSON.parse(body));
  const policy = await api('POST', '/escalation-policies', {
    name: 'soak',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  for (let i = 0; i < RULES; i++) {
    const flipping = i < RULES / 2;
    await api('POST', '/alert-rules', {
      name: `soak ${i}`,
      metric: flipping ? 'queue_time_seconds' : 'disk_spill_gb',
      condition: 'gt',
      threshold: flipping ? 30 : 1e12,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: policy.id,
      cluster_id: cluster,
    });
  }
  let pinned = 45;
  const flip = async () => {
    await api('POST', '/simulator/metrics', { metric: 'queue_time_seconds', value: pinned, duration_seconds: 3600 });
    pinned = pinned === 45 ? 10 : 45;
  };
  await flip();
  const flipper = setInterval(() => void flip().catch((e) => console.error('flip', e.message)), 120_000);

  // Incidents the load reads and annotates: the newest ones, refreshed every 30 s.
  let incidents: string[] = [];
  const refreshIncidents = async () => {
    incidents = (await api('GET', '/incidents?limit=50')).map((i: { id: string }) => i.id);
  };
  const deadline = Date.now() + 30_000;
  while (incidents.length === 0 && Date.now() < deadline) {
    await refreshIncidents();
    await new Promise((r) => setTimeout(r, 1000));
  }

  // The stream consumers.
  let streamEvents = 0;
  let streamConnections = 0;
  let ticketStreams = 0;
  let stopping = false;
  const consume = async (url: string, extraHeaders: Record<string, string>, signal: AbortSignal) => {
    const response = await fetch(url, { headers: extraHeaders, signal });
    if (response.status !== 200 || !response.body) throw new Error(`stream ${response.status}`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      streamEvents += Buffer.from(chunk).toString().split('\ndata: ').length - 1;
  };
  const consumer = new AbortController();
  const longLived = (async () => {
    while (!stopping && STREAMS) {
      streamConnections++;
      await consume(`${base}/api/v1/incidents/stream`, { authorization: `Bearer ${token}` }, consumer.signal).catch(
        () => undefined,
      );
    }
  })();
  const ticketed = setInterval(() => {
    if (!STREAMS) return;
    void (async () => {
      const { ticket } = await api('POST', '/stream-tickets', { path: '/api/v1/incidents/stream' });
      const brief = AbortSignal.timeout(5000);
      ticketStreams++;
      await consume(`${base}/api/v1/incidents/stream?ticket=${ticket}`, {}, brief).catch(() => undefined);
    })().catch((e) => console.error('ticket stream', e.message));
  }, 30_000);
  const refresher = setInterval(() => void refreshIncidents().catch(() => undefined), 30_000);

  // Samples.
  const started = Date.now();
  const samples: Array<
    ReturnType<typeof residentMemory> & {
      minute: number;
      heap_used_mib: number;
      heap_total_mib: number;
      off_heap_mib: number;
      external_mib: number;
      array_buffers_mib: number;
      event_loop_lag_p99_ms: number;
    }
  > = [];
  const sample = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const mib = (name: string) => +(metricOf(text, name) / MiB).toFixed(1);
    const resident = residentMemory(pid);
    samples.push({
      minute: +((Date.now() - started) / 60_000).toFixed(3),
      ...resident,
      heap_used_mib: mib('nodejs_heap_size_used_bytes'),
      heap_total_mib: mib('nodejs_heap_size_total_bytes'),
      // RSS outside the main thread's V8 heap: native memory, worker threads' heaps, code.
      off_heap_mib: +(resident.rss_mib - mib('nodejs_heap_size_total_bytes')).toFixed(1),
      external_mib: mib('nodejs_external_memory_bytes'),
      array_buffers_mib: mib('nodejs_array_buffers_bytes'),
      event_loop_lag_p99_ms: +(metricOf(text, 'nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(2),
    });
  };
  await sample();
  const sampler = setInterval(
    () => void sample().catch((e) => console.error('sample', e.message)),
    SAMPLE_SECONDS * 1000,
  );

  /** The figures so far: written after every window, so a run cut short still leaves its windows. */
  const figuresSoFar = (complete: boolean) => {
    const warmUp = Math.min(WINDOW_MINUTES, MINUTES / 2);
    const after = samples.filter((s) => s.minute >= warmUp);
    const halves = [after.slice(0, after.length / 2), after.slice(after.length / 2)];
    return {
      benchmark: 'soak',
      date: new Date().toISOString(),
      machine: machine(),
      load_average_1_5_15: { before: loadBefore, after: loadavg().map((l) => +l.toFixed(2)) },
      settings: {
        minutes: MINUTES,
        window_minutes: WINDOW_MINUTES,
        target_requests_per_second: RATE,
        connections: 10,
        sample_seconds: SAMPLE_SECONDS,
        evaluation_interval_seconds: 5,
        rules: RULES,
        flipping_rules: Math.ceil(RULES / 2),
        writes: WRITES,
        streams: STREAMS,
        malloc_arena_max: process.env.MALLOC_ARENA_MAX ?? null,
        flip_every_seconds: 120,
        platform_node_flags: flags!.split(' '),
        platform_entry: entry,
        log_level: LOG_LEVEL ?? 'default (info)',
        warm_up_minutes: warmUp,
      },
      windows,
      rss_slope_mib_per_min_after_warm_up: +slope(after.map((s) => [s.minute, s.rss_mib])).toFixed(3),
      rss_slope_mib_per_min_by_half: halves.map((h) => +slope(h.map((s) => [s.minute, s.rss_mib])).toFixed(3)),
      off_heap_slope_mib_per_min_after_warm_up: +slope(after.map((s) => [s.minute, s.off_heap_mib])).toFixed(3),
      rss_anon_slope_mib_per_min_after_warm_up: +slope(after.map((s) => [s.minute, s.rss_anon_mib])).toFixed(3),
      heap_used_slope_mib_per_min_after_warm_up: +slope(after.map((s) => [s.minute, s.heap_used_mib])).toFixed(3),
      heap_used_slope_mib_per_min_by_half: halves.map(
        (h) => +slope(h.map((s) => [s.minute, s.heap_used_mib])).toFixed(3),
      ),
      stream: {
        events_received: streamEvents,
        long_lived_connections: streamConnections,
        ticket_streams_opened: ticketStreams,
      },
      malloc_trim_at_end: trimmed,
      incidents_known_at_end: incidents.length,
      platform_log_bytes: platform.loggedBytes(),
      samples,
      complete,
    };
  };
  const write = (results: ReturnType<typeof figuresSoFar>) => {
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(process.env.BENCH_OUT ?? 'bench/results/soak.json', `${JSON.stringify(results, null, 2)}\n`);
  };
  const pick = () => incidents[Math.floor(Math.random() * incidents.length)];
  let trimmed: ReturnType<typeof trimMalloc> | undefined;
  const windows: Array<Record<string, unknown> & { errors: number; non_2xx: number }> = [];
  const windowCount = Math.max(1, Math.round(MINUTES / WINDOW_MINUTES));
  for (let w = 0; w < windowCount; w++) {
    token = await devToken(base, dataDir);
    const h = headers();
    const from = (Date.now() - started) / 60_000;
    const result = await autocannon({
      url: base,
      connections: 10,
      overallRate: RATE,
      duration: Math.round(Math.min(WINDOW_MINUTES, MINUTES) * 60),
      requests: [
        {
          method: WRITES ? 'POST' : 'GET',
          path: WRITES ? '/api/v1/notification-channels' : '/api/v1/notification-channels?limit=5',
          headers: h,
          body: WRITES ? body : undefined,
          onResponse: (status, responseBody, context) => {
            if (status === 201) (context as { channelId?: string }).channelId = JSON.parse(responseBody).data.id;
          },
        },
        {
          method: 'GET',
          headers: h,
          setupRequest: (req, context) => ({
            ...req,
            path: `/api/v1/notification-channels/${(context as { channelId?: string }).channelId ?? channel.id}`,
          }),
        },
        { method: 'GET', path: '/api/v1/notification-channels?limit=20', headers: h },
        { method: 'GET', path: '/api/v1/incidents?limit=20', headers: h },
        { method: 'GET', headers: h, setupRequest: (req) => ({ ...req, path: `/api/v1/incidents/${pick()}` }) },
        WRITES
          ? {
              method: 'POST',
              headers: h,
              body: JSON.stringify({ text: 'looked at it' }),
              setupRequest: (req) => ({ ...req, path: `/api/v1/incidents/${pick()}/notes` }),
            }
          : { method: 'GET', headers: h, setupRequest: (req) => ({ ...req, path: `/api/v1/incidents/${pick()}` }) },
        { method: 'GET', path: '/api/v1/alert-rules?limit=20', headers: h },
        { method: 'GET', path: '/api/v1/notification-channels?limit=1', headers: h },
      ],
    });
    const to = (Date.now() - started) / 60_000;
    const inWindow = samples.filter((s) => s.minute >= from && s.minute <= to);
    const stat = (
      key:
        | 'rss_mib'
        | 'heap_used_mib'
        | 'off_heap_mib'
        | 'external_mib'
        | 'array_buffers_mib'
        | 'event_loop_lag_p99_ms',
    ) => {
      const values = inWindow.map((s) => s[key]);
      return { first: values[0], last: values.at(-1), min: Math.min(...values), max: Math.max(...values) };
    };
    const figures = {
      window: w + 1,
      minutes: [+from.toFixed(1), +to.toFixed(1)],
      requests: result.requests.total,
      requests_per_second: Math.round(result.requests.average),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      latency_max_ms: result.latency.max,
      non_2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      rss_mib: stat('rss_mib'),
      heap_used_mib: stat('heap_used_mib'),
      off_heap_mib: stat('off_heap_mib'),
      external_mib: stat('external_mib'),
      array_buffers_mib: stat('array_buffers_mib'),
      ...(GDB ? mallocFigures(pid) : {}),
      data_files_mib: Object.fromEntries(
        readdirSync(dataDir)
          .filter((f) => f.endsWith('.db') || f.endsWith('-wal'))
          .map((f) => [f, +(statSync(join(dataDir, f)).size / MiB).toFixed(1)]),
      ),
      event_loop_lag_p99_ms: stat('event_loop_lag_p99_ms'),
      load_average_1: +loadavg()[0]!.toFixed(2),
    };
    windows.push(figures);
    console.log(JSON.stringify(figures));
    write(figuresSoFar(false));
  }
  await sample();
  if (GDB) trimmed = trimMalloc(pid);
  stopping = true;
  clearInterval(sampler);
  clearInterval(flipper);
  clearInterval(ticketed);
  clearInterval(refresher);
  consumer.abort();
  await longLived;
  platform.child.kill('SIGTERM');
  await new Promise((resolve) =>
    platform.child.exitCode !== null ? resolve(undefined) : platform.child.once('exit', resolve),
  );
  rmSync(dataDir, { recursive: true, force: true });

  const results = figuresSoFar(true);
  write(results);
  const { samples: _omitted, ...summary } = results;
  console.log(JSON.stringify(summary, null, 2));
  if (windows.some((w) => w.errors > 0 || w.non_2xx > 0)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  running?.kill('SIGTERM');
  process.exit(1);
});
