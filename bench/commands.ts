/**
 * Command and query throughput on the embedded stores with full durability, against a bare Koa
 * hello-world measured in the same run, plus append-to-visible projection lag.
 *
 * One run: the hello process and the platform (started like `npm start`: same V8 flags, default
 * LOG_LEVEL) are both up; each of three rounds loads hello, create and list in turn, and the
 * figures are the medians of the rounds, so every ratio compares loads of the same minute on this
 * shared machine. Server CPU per request comes from /proc (user + system of the whole process, its
 * threads included, and of its main thread alone). Afterwards every 2xx create is looked up in the event log.
 * Writes bench/results/commands.json. Run: npm run bench (or npx tsx bench/commands.ts).
 * BENCH_CPU_PROF=dir writes a V8 CPU profile of the platform process into dir (with BENCH_ONLY=create
 * or list, of that route alone; bench/profile-breakdown.ts sorts it into components).
 * BENCH_CONNECTIONS (default 50) changes the load's concurrency, e.g. to see whether a route is bound
 * by latency (more connections, more requests) or by CPU (about the same).
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort } from '../test/support/platform-process.js';
import { machine } from './support/machine.js';
import { projectionLag, type LagFigures } from './support/projection-lag.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/**
 * `exec node <flags> <entry>` of a checkout's `npm start` (package.json), so the benchmark measures what runs in
 * production: src/start.mjs (compiled JavaScript), or src/main.ts under tsx in older checkouts.
 */
function startCommandOf(dir: string) {
  const [, flags, entry] = /exec node (.*) (\S+\.m?[jt]s)$/.exec(
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.start,
  )!;
  return { flags: flags!.split(' '), entry: entry! };
}
const START = startCommandOf('.');
const CLOCK_TICKS_PER_SECOND = 100;
/**
 * Another checkout of the platform (e.g. `git archive <commit> | tar -x -C dir`, with node_modules
 * linked) loaded in the same rounds: before/after figures of one run on this shared machine.
 */
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
/** Profiling: load only one route (create or list), so the profile is that route's alone; `lag`: only the projection lag. */
const ONLY = process.env.BENCH_ONLY;

async function startProcess(args: string[], env: Record<string, string>, cwd = '.') {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('is listening on') && resolve());
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return child;
}

/** CPU seconds (user + system) used so far: by all threads of the process, or (`/task/<pid>`) by its main thread. */
function cpuSeconds(child: ChildProcess, mainThreadOnly = false): number {
  const path = mainThreadOnly ? `/proc/${child.pid}/task/${child.pid}/stat` : `/proc/${child.pid}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

const rssMiB = (child: ChildProcess) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024);

async function load(server: ChildProcess, options: autocannon.Options) {
  // Warm up first (JIT, caches, the JWKS fetch), then measure.
  await autocannon({ duration: 2, connections: CONNECTIONS, ...options });
  const cpuBefore = cpuSeconds(server);
  const mainBefore = cpuSeconds(server, true);
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...options });
  const cpu = cpuSeconds(server) - cpuBefore;
  const mainCpu = cpuSeconds(server, true) - mainBefore;
  // autocannon runs in this process: what the load itself costs the machine's two cores.
  const generator = process.cpuUsage(generatorBefore);
  const generatorCpu = (generator.user + generator.system) / 1e6;
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, result.requests.total));
  return {
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    server_cpu_us_per_request: perRequest(cpu),
    // The event loop's share: what bounds throughput when the other threads have a core of their own.
    main_thread_cpu_us_per_request: perRequest(mainCpu),
    load_generator_cpu_us_per_request: perRequest(generatorCpu),
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

type Figures = Awaited<ReturnType<typeof load>>;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The round with the median requests per second, and the median of the same-round ratios. */
function summary(rounds: Figures[], ratios?: number[]) {
  if (rounds.length === 0) return null;
  const middle = rounds.find((r) => r.requests_per_second === median(rounds.map((x) => x.requests_per_second)))!;
  return {
    ...middle,
    server_cpu_us_per_request: median(rounds.map((r) => r.server_cpu_us_per_request)),
    main_thread_cpu_us_per_request: median(rounds.map((r) => r.main_thread_cpu_us_per_request)),
    load_generator_cpu_us_per_request: median(rounds.map((r) => r.load_generator_cpu_us_per_request)),
    ...(ratios
      ? { ratio_to_bare_koa: +median(ratios).toFixed(3), ratio_per_round: ratios.map((r) => +r.toFixed(3)) }
      : {}),
    requests_per_second_per_round: rounds.map((r) => r.requests_per_second),
  };
}

/** Every create answered 2xx must be in the log (the platform has stopped; its files are closed). */
function checkAcknowledgedCreates(dataDir: string, acknowledged: Set<string>) {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  const stored = new Set(
    db.prepare(`SELECT stream FROM events WHERE type = 'ChannelCreated'`).pluck().all() as string[],
  );
  db.close();
  const missing = [...acknowledged].filter((id) => !stored.has(`channel-${id}`));
  return { acknowledged_creates: acknowledged.size, missing_from_log: missing.length };
}

/** A platform started like `npm start` from `dir` (its own package.json's flags), with a dev token. */
async function startPlatform(dir: string, profileDir?: string) {
  const { flags, entry } = startCommandOf(dir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-platform-'));
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = await startProcess(
    [...flags, ...profile, entry],
    { PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, DATA_DIR: dataDir },
    dir,
  );
  const token = await devToken(baseUrl, dataDir);
  const acknowledged = new Set<string>();
  return {
    child,
    baseUrl,
    dataDir,
    acknowledged,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    onResponse: (status: number, responseBody: string) => {
      if (status >= 200 && status < 300)
        acknowledged.add((JSON.parse(responseBody) as { data: { id: string } }).data.id);
    },
  };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

async function main() {
  if (ONLY === 'lag') {
    // The lag alone, printed (no results file): quick comparisons of the runners.
    console.log(
      JSON.stringify({
        thread: await projectionLag('.', 'thread'),
        in_process: await projectionLag('.', 'in_process'),
      }),
    );
    return;
  }
  const loadBefore = loadavg().map((l) => +l.toFixed(2));
  const helloPort = await freePort();
  const hello = await startProcess(['--import', 'tsx', 'bench/support/hello-koa.ts'], { PORT: String(helloPort) });
  const floorPort = await freePort();
  const floor = ONLY
    ? undefined
    : await startProcess(['--import', 'tsx', 'bench/support/floor-koa.ts'], { PORT: String(floorPort) });

  const body = JSON.stringify({
    name: 'bench',
    type: 'email',
    config: { recipients: ['oncall@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
  });
  delete process.env.LOG_LEVEL; // the default level, as `npm start` runs
  const current = await startPlatform('.', process.env.BENCH_CPU_PROF);
  const baseline = BASELINE_DIR ? await startPlatform(BASELINE_DIR) : undefined;
  const platforms = baseline ? [current, baseline] : [current];

  const rounds = {
    hello: [] as Figures[],
    floor: [] as Figures[],
    create: [] as Figures[],
    list: [] as Figures[],
    baselineCreate: [] as Figures[],
    baselineList: [] as Figures[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.hello.push(await load(hello, { url: `http://127.0.0.1:${helloPort}/` }));
    if (floor) {
      rounds.floor.push(
        await load(floor, {
          url: `http://127.0.0.1:${floorPort}/api/v1/notification-channels`,
          requests: [{ method: 'POST', headers: current.headers, body }],
        }),
      );
    }
    for (const platform of platforms) {
      const into = platform === current ? rounds : { create: rounds.baselineCreate, list: rounds.baselineList };
      const { headers, onResponse } = platform;
      if (ONLY !== 'list')
        into.create.push(
          await load(platform.child, {
            url: `${platform.baseUrl}/api/v1/notification-channels`,
            requests: [{ method: 'POST', headers, body, onResponse }],
          }),
        );
      if (ONLY !== 'create')
        into.list.push(
          await load(platform.child, { url: `${platform.baseUrl}/api/v1/notification-channels?limit=1`, headers }),
        );
    }
  }
  const rss = platforms.map((p) => rssMiB(p.child));
  hello.kill('SIGTERM');
  floor?.kill('SIGTERM');
  for (const platform of platforms) {
    platform.child.kill('SIGTERM');
    await exited(platform.child);
  }
  const loadAfter = loadavg().map((l) => +l.toFixed(2));
  const check = checkAcknowledgedCreates(current.dataDir, current.acknowledged);
  const baselineCheck = baseline && checkAcknowledgedCreates(baseline.dataDir, baseline.acknowledged);
  // Each platform's data directory holds every create of the run (tens of MiB): checked, then gone.
  for (const platform of platforms) rmSync(platform.dataDir, { recursive: true, force: true });

  const ratios = (route: Figures[]) =>
    route.map((r, i) => r.requests_per_second / rounds.hello[i]!.requests_per_second);
  // The lag in rounds too (the p99 of one round moves by a few milliseconds with the machine's
  // load): this tree's writer-thread runner, the baseline's (its own modules) and the in-process one.
  const lagRounds = { thread: [] as LagFigures[], baseline: [] as LagFigures[], inProcess: [] as LagFigures[] };
  for (let round = 0; round < ROUNDS; round++) {
    lagRounds.thread.push(await projectionLag('.', 'thread'));
    if (BASELINE_DIR) lagRounds.baseline.push(await projectionLag(BASELINE_DIR, 'thread'));
    lagRounds.inProcess.push(await projectionLag('.', 'in_process'));
  }
  const lagSummary = (figures: LagFigures[]) => ({
    appends_per_round: figures[0]!.appends,
    concurrent_writers: figures[0]!.concurrent_writers,
    p50_ms: median(figures.map((f) => f.p50_ms)),
    p99_ms: median(figures.map((f) => f.p99_ms)),
    p99_ms_per_round: figures.map((f) => f.p99_ms),
  });
  const lag = {
    ...lagSummary(lagRounds.thread),
    in_process_runner_same_run: lagSummary(lagRounds.inProcess),
    ...(BASELINE_DIR ? { baseline_same_run: lagSummary(lagRounds.baseline) } : {}),
  };
  const helloSummary = summary(rounds.hello)!;
  /**
   * The most the machine's cores could answer of a route together with its load generator (which
   * runs on the same cores): every core busy with the two, nothing else running, nothing waiting.
   * A ratio target above this route's ceiling ratio cannot be met on this machine in this run.
   */
  const cpuCeiling = (route: Figures[]) => {
    const figures = summary(route);
    if (!figures) return null;
    const perRequest = figures.server_cpu_us_per_request + figures.load_generator_cpu_us_per_request;
    const requestsPerSecond = Math.round((machine().cores * 1e6) / perRequest);
    return {
      cpu_us_per_request_with_load_generator: perRequest,
      requests_per_second: requestsPerSecond,
      ratio_to_bare_koa: +(requestsPerSecond / helloSummary.requests_per_second).toFixed(3),
    };
  };
  const results = {
    benchmark: 'commands',
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1_5_15: { before: loadBefore, after: loadAfter },
    settings: {
      duration_seconds: DURATION,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      platform_node_flags: START.flags,
      platform_entry: START.entry,
      log_level: 'default (info)',
      durability: 'SQLite WAL, synchronous=FULL, group commit',
    },
    bare_koa_hello_world: helloSummary,
    // The same POST against Koa with a constant handler (bench/support/floor-koa.ts): what no create can beat.
    koa_constant_create_floor: summary(rounds.floor, ratios(rounds.floor)),
    create_notification_channel: summary(rounds.create, ratios(rounds.create)),
    list_notification_channels_limit_1: summary(rounds.list, ratios(rounds.list)),
    cpu_bound_ceiling: {
      create_notification_channel: cpuCeiling(rounds.create),
      list_notification_channels_limit_1: cpuCeiling(rounds.list),
    },
    platform_rss_mib_after_run: rss[0],
    acknowledged_creates_in_log: check,
    ...(baseline
      ? {
          baseline_same_run: {
            source: process.env.BENCH_BASELINE_LABEL ?? BASELINE_DIR,
            create_notification_channel: summary(rounds.baselineCreate, ratios(rounds.baselineCreate)),
            list_notification_channels_limit_1: summary(rounds.baselineList, ratios(rounds.baselineList)),
            platform_rss_mib_after_run: rss[1],
            acknowledged_creates_in_log: baselineCheck,
          },
        }
      : {}),
    append_to_visible_projection_lag: lag,
    targets: { create_ratio_min: 0.25, list_ratio_min: 0.25, projection_lag_p99_ms_max: 5 },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(process.env.BENCH_OUT ?? 'bench/results/commands.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  const failed =
    [check, baselineCheck].some((c) => c && c.missing_from_log > 0) ||
    Object.values(rounds).some((route) => route.some((r) => r.non_2xx > 0 || r.errors > 0));
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
