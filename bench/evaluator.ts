/**
 * Evaluation ticks over BENCH_EVALUATOR_RULES enabled rules (default 100,000) spread over 50
 * simulated clusters, the seven metrics and three windows, on the embedded stores with the
 * projections on the log's writer thread, as the platform runs them. 1 % of the rules breach
 * (threshold 0), so some incidents trigger and some rules stay pending; the rest stay `ok`.
 *
 * Reports, per tick: duration, the process's CPU time over it (`cpu_ms`: on a shared machine the
 * wall clock also counts the neighbours; `cpu_ms_less_read_load` without the concurrent reads'
 * own time; `main_thread_cpu_ms_less_read_load` the main thread's alone, less those reads), the
 * decisions carried over from the last tick, the tick's phases (`phases_ms`), warehouse reads
 * against the distinct combinations, events appended and the log's growth (bytes), and the
 * event loop's delay p99 while a concurrent load of API-like read-model reads runs
 * (bench/support/api-read-load.ts). Phases are collected (a full GC) before they start. The ticks:
 * - one instance: its first tick after start (the rules were just created: none evaluated yet),
 *   then steady ticks;
 * - a restart: a new evaluator over the same read model (nothing in memory), its first tick;
 * - the same rules split three ways by their share bucket (src/events/rule-shares.ts + ownerOf, as
 *   the cluster splits them), three new evaluators: each member's tick, one after the other on this
 *   one process (a member's share of the machine), first round included.
 * An evaluator that keeps the rules in memory reads them at start-up (`warm`, timed apart, with the
 * event loop's delay meanwhile); the bench also runs on code from before it (no `warm`: the first
 * tick reads them), so before and after can be measured back to back under the same load.
 * Writes bench/results/evaluator.json (BENCH_EVALUATOR_OUT to write elsewhere), with the load
 * average before and after.
 *
 * Targets (issue 39): every tick < 1 s on one instance (the first after a start included),
 * < 0.5 s per member over three, event-loop delay p99 < 20 ms during a tick.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { ALERT_RULES, alertRulesProjection } from '../projections/alert-rules.js';
import { incidentsProjection } from '../projections/incidents.js';
import { iamChangeStamps } from '../src/auth/iam-change-stamps.js';
import { ownerOf } from '../src/cluster/membership.js';
import { projectionThread } from '../src/composition/projection-thread.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { createEvaluator, createEvaluatorInstruments, type TickReport } from '../src/process/evaluator.js';
import { docChangeFeed } from '../src/readstore/doc-changes.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { apiReadLoad, type ReadLoadFigures } from './support/api-read-load.js';
import { machine } from './support/machine.js';

const RULES = Number(process.env.BENCH_EVALUATOR_RULES ?? 100_000);
const TICKS = Math.max(5, Number(process.env.BENCH_EVALUATOR_TICKS ?? 5));
const CLUSTERS = 50;
const METRICS = [
  'query_runtime_seconds',
  'disk_spill_gb',
  'queue_time_seconds',
  'storage_utilization_pct',
  'unsorted_pct',
  'active_query_count',
  'cpu_utilization_pct',
];
const WINDOWS = [5, 15, 60];
const MEMBERS = ['member-a', 'member-b', 'member-c'];
const INTERVAL_MS = 60_000;
const TICKS_PER_DAY = (24 * 3600 * 1000) / INTERVAL_MS;
const OUT = process.env.BENCH_EVALUATOR_OUT ?? 'bench/results/evaluator.json';
const load1 = () => +loadavg()[0]!.toFixed(2);
/**
 * The process's CPU time (user + system, every thread: the tick, the projections' writer thread and
 * the concurrent read load) over a span: on a shared machine the wall clock also counts the time
 * the neighbours held the cores, this does not.
 */
const cpuMs = (usage: NodeJS.CpuUsage) => Math.round((usage.user + usage.system) / 1000);
/**
 * The main thread's own CPU time so far (ms, Linux: /proc, in steps of 10 ms), or null: the tick
 * and the concurrent reads, not the projections' writer thread.
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
const mainThreadSince = (before: number | null) => {
  const after = mainThreadCpuMs();
  return before === null || after === null ? null : after - before;
};

/**
 * A full garbage collection, between phases: a restarted process starts without the last
 * evaluator's 100,000 dropped documents, so the bench's restart must not collect them in its tick.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-evaluator-'));
  const files = { eventsFile: join(dir, 'events.db'), readModelsFile: join(dir, 'read.db') };
  const eventStore = openSqliteEventStore({ filename: files.eventsFile });
  const readStore = openSqliteReadStore(files.readModelsFile);
  const logger = pino({ level: 'silent' });
  const loadBefore = load1();
  const ruleChanges = docChangeFeed();
  const runner = projectionThread({
    ...files,
    secrets: { key: randomBytes(32), previousKeys: [] },
    secretsKeyFile: join(dir, 'secrets.key'),
    projections: [alertRulesProjection, incidentsProjection],
    iamProjections: new Set(),
    stamps: iamChangeStamps(),
    onRuleChanges: ruleChanges.publish,
    logLevel: 'silent',
    logger,
  });
  await runner.start();
  // The log's size as SQLite counts it (pages in use, the WAL's committed frames included).
  const logFile = new Database(files.eventsFile, { readonly: true });
  const logBytes = () => {
    const pages = logFile.pragma('page_count', { simple: true }) as number;
    const free = logFile.pragma('freelist_count', { simple: true }) as number;
    return (pages - free) * (logFile.pragma('page_size', { simple: true }) as number);
  };

  let clock = new Date('2026-11-20T12:00:00Z');
  const now = () => clock;
  const simulated = createSimulatedWarehouse({ now });
  const targets = Array.from({ length: CLUSTERS }, () => {
    const envId = randomUUID();
    return { envId, clusterId: simulatedClusters(envId)[0]!.id };
  });
  const tenantId = randomUUID();
  const combinations = new Set<string>();
  const ruleIds: string[] = [];
  let last = 0n;
  const setUpStarted = performance.now();
  for (let i = 0; i < RULES; i += 500) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(500, RULES - i) }, (_, j) => {
        const n = i + j;
        const target = targets[n % CLUSTERS]!;
        const metric = METRICS[Math.floor(n / CLUSTERS) % METRICS.length]!;
        const window = WINDOWS[Math.floor(n / (CLUSTERS * METRICS.length)) % WINDOWS.length]!;
        combinations.add(`${target.clusterId}/${metric}/${window}`);
        const ruleId = randomUUID();
        ruleIds.push(ruleId);
        return eventStore.append(`alertRule-${ruleId}`, [
          {
            type: 'AlertRuleCreated',
            data: {
              ruleId,
              name: `rule ${n}`,
              description: null,
              metric,
              condition: 'gt',
              threshold: n % 100 === 0 ? 0 : 1e12,
              evaluationWindowMinutes: window,
              severity: 'low',
              escalationPolicyId: randomUUID(),
              clusterId: target.clusterId,
              isEnabled: true,
              envId: target.envId,
            },
            metadata: {
              tenantId,
              actor: 'bench',
              correlationId: 'bench',
              causationId: 'bench',
              occurredAt: clock.toISOString(),
            },
          },
        ]);
      }),
    );
    last = batch.at(-1)!.position;
  }
  await runner.waitFor(last, 600_000);
  const setUpSeconds = (performance.now() - setUpStarted) / 1000;

  const evaluator = (owns?: (key: string) => boolean) =>
    createEvaluator({
      eventStore,
      now,
      reader: readStore,
      ruleChanges,
      metrics: createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control }),
      logger,
      instruments: createEvaluatorInstruments(new Registry()),
      waitForProjections: (position) => runner.waitFor(position, 60_000),
      owns,
    });
  const load = apiReadLoad(readStore, ALERT_RULES, tenantId, ruleIds);
  const measured = async (tick: () => Promise<TickReport>) => {
    const headBefore = await eventStore.headPosition();
    const bytesBefore = logBytes();
    load.start();
    // The delay monitor measures from its first sample on: let it take one before the tick starts.
    await delay(20);
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuMs();
    const report = await tick();
    const cpu = process.cpuUsage(cpuBefore);
    const mainThread = mainThreadSince(mainBefore);
    const reads: ReadLoadFigures = await load.stop();
    return {
      duration_ms: Math.round(report.durationMs),
      cpu_ms: cpuMs(cpu),
      cpu_ms_less_read_load: cpuMs(cpu) - reads.busy_ms,
      main_thread_cpu_ms_less_read_load: mainThread === null ? null : mainThread - reads.busy_ms,
      phases_ms: report.phasesMs,
      rules: report.rules,
      carried_over: report.carriedOver ?? null,
      warehouse_reads: report.metricReads,
      triggered: report.triggered,
      errors: report.errors,
      events_appended: Number((await eventStore.headPosition()) - headBefore),
      log_growth_bytes: logBytes() - bytesBefore,
      concurrent_reads: reads,
    };
  };

  /** The start-up read of the rules (none on code without it), under the same concurrent load. */
  const warmed = async (started: { warm?: () => Promise<void> }) => {
    if (!started.warm) return null;
    load.start();
    await delay(20);
    const at = performance.now();
    const cpuBefore = process.cpuUsage();
    await started.warm();
    const cpu = process.cpuUsage(cpuBefore);
    const ms = Math.round(performance.now() - at);
    const reads = await load.stop();
    return {
      duration_ms: ms,
      cpu_ms: cpuMs(cpu),
      cpu_ms_less_read_load: cpuMs(cpu) - reads.busy_ms,
      event_loop_delay_p99_ms: reads.event_loop_delay_p99_ms,
    };
  };

  // Each phase's evaluators are dropped when it ends, and collected before the next phase starts: a
  // process holds one evaluator's rules, and the next phase must not pay for the last one's garbage.
  const soloPhase = async () => {
    const solo = evaluator();
    const read = await warmed(solo);
    const measuredTicks = [];
    for (let i = 0; i < TICKS; i++) {
      clock = new Date(clock.getTime() + INTERVAL_MS);
      measuredTicks.push(await measured(() => solo.tick()));
    }
    return { read, measuredTicks };
  };
  const { read: startUpRead, measuredTicks: ticks } = await soloPhase();
  const restartPhase = async () => {
    collectGarbage();
    const restarted = evaluator();
    const read = await warmed(restarted);
    clock = new Date(clock.getTime() + INTERVAL_MS);
    return { read, tick: await measured(() => restarted.tick()) };
  };
  const { read: restartRead, tick: restartTick } = await restartPhase();
  collectGarbage();
  const members = MEMBERS.map((self) => ({ self, evaluator: evaluator((key) => ownerOf(key, MEMBERS) === self) }));
  const memberReads = [];
  for (const member of members) memberReads.push(await warmed(member.evaluator));
  const splitTicks = [];
  for (let i = 0; i < TICKS; i++) {
    clock = new Date(clock.getTime() + INTERVAL_MS);
    const round = [];
    for (const member of members)
      round.push({ member: member.self, ...(await measured(() => member.evaluator.tick())) });
    splitTicks.push(round);
  }
  await runner.stop();
  logFile.close();
  await eventStore.close();
  await readStore.close();

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const max = (values: number[]) => Math.max(...values);
  // The first tick is the first evaluation of every rule; the steady state is what a day repeats.
  const steady = ticks.slice(1);
  const memberTicks = splitTicks.flat();
  const loadAfter = load1();
  const results = {
    benchmark: 'evaluator',
    date: new Date().toISOString(),
    machine: machine(),
    settings: {
      rules: RULES,
      breaching_rules: Math.ceil(RULES / 100),
      clusters: CLUSTERS,
      metrics: METRICS.length,
      windows: WINDOWS,
      distinct_combinations: combinations.size,
      stores: 'embedded SQLite, projections on the writer thread',
      interval_ms: INTERVAL_MS,
      set_up_seconds: +setUpSeconds.toFixed(1),
      concurrent_load:
        'read-model finds (20 newest rules) and gets (one rule) in a loop, yielding to the event loop between reads',
    },
    load_average_1m: { before: loadBefore, after: loadAfter },
    start_up_read: startUpRead,
    ticks,
    first_tick_ms: ticks[0]!.duration_ms,
    first_tick_cpu_ms: ticks[0]!.cpu_ms,
    first_tick_events_appended: ticks[0]!.events_appended,
    median_steady_tick_ms: median(steady.map((t) => t.duration_ms)),
    max_steady_tick_ms: max(steady.map((t) => t.duration_ms)),
    median_steady_tick_cpu_ms: median(steady.map((t) => t.cpu_ms)),
    median_steady_tick_cpu_ms_less_read_load: median(steady.map((t) => t.cpu_ms_less_read_load)),
    median_steady_tick_main_thread_cpu_ms_less_read_load: median(
      steady.map((t) => t.main_thread_cpu_ms_less_read_load ?? 0),
    ),
    carried_over_per_steady_tick: steady.map((t) => t.carried_over),
    median_tick_ms: median(ticks.map((t) => t.duration_ms)),
    max_tick_ms: max(ticks.map((t) => t.duration_ms)),
    event_loop_delay_p99_ms_max_over_ticks: max(ticks.map((t) => t.concurrent_reads.event_loop_delay_p99_ms)),
    restart: { start_up_read: restartRead, first_tick: restartTick },
    reads_equal_distinct_combinations: ticks.every((t) => t.warehouse_reads === combinations.size),
    steady_state: {
      events_appended_per_tick: median(steady.map((t) => t.events_appended)),
      log_growth_bytes_per_tick: median(steady.map((t) => t.log_growth_bytes)),
      log_growth_gib_per_day_at_one_tick_a_minute: +(
        (median(steady.map((t) => t.log_growth_bytes)) * TICKS_PER_DAY) /
        2 ** 30
      ).toFixed(2),
      events_per_day_at_one_tick_a_minute: median(steady.map((t) => t.events_appended)) * TICKS_PER_DAY,
    },
    split_three_ways: {
      start_up_reads: memberReads,
      rounds: splitTicks,
      member_first_round_max_tick_ms: max(splitTicks[0]!.map((t) => t.duration_ms)),
      member_median_tick_ms: median(memberTicks.map((t) => t.duration_ms)),
      member_max_tick_ms: max(memberTicks.map((t) => t.duration_ms)),
      member_median_tick_cpu_ms: median(memberTicks.map((t) => t.cpu_ms)),
      rules_per_member: MEMBERS.map((self) => memberTicks.find((t) => t.member === self)!.rules),
      reads_per_round_equal_distinct_combinations: splitTicks.every(
        (round) => round.reduce((sum, t) => sum + t.warehouse_reads, 0) === combinations.size,
      ),
      event_loop_delay_p99_ms_max: max(memberTicks.map((t) => t.concurrent_reads.event_loop_delay_p99_ms)),
    },
    targets: { tick_ms_max: 1000, member_tick_ms_max: 500, event_loop_delay_p99_ms: 20 },
    met: {
      every_tick_under_1s: Math.max(max(ticks.map((t) => t.duration_ms)), restartTick.duration_ms) < 1000,
      every_member_tick_under_500ms: max(memberTicks.map((t) => t.duration_ms)) < 500,
      event_loop_delay_p99_under_20ms:
        Math.max(
          ...[...ticks, restartTick, ...memberTicks].map((t) => t.concurrent_reads.event_loop_delay_p99_ms),
          ...[startUpRead, restartRead, ...memberReads].map((r) => r?.event_loop_delay_p99_ms ?? 0),
        ) < 20,
    },
  };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    JSON.stringify(
      { ...results, ticks: undefined, split_three_ways: { ...results.split_three_ways, rounds: undefined } },
      null,
      2,
    ),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
