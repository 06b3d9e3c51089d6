/**
 * On-call schedule math: latency of currentOnCall at random instants and of rendering 90 days, for
 * a 5-layer, 20-override schedule in a DST zone with one deactivated user. Pure CPU, no I/O; every
 * call compiles the definition again, as a request handler would. Writes bench/results/schedules.json.
 *
 *   npx tsx bench/schedules.ts
 *
 * Instants come from a seeded generator, so runs differ only by the machine and its load (recorded:
 * on a shared machine the wall-clock tail is time spent waiting for a core; cpu_mean_ms is not).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { currentOnCall } from '../src/oncall/current-on-call.js';
import { MAX_RENDER_DAYS, renderSchedule } from '../src/oncall/render-schedule.js';
import type { Override, ScheduleDefinition } from '../src/oncall/schedule-definition.js';
import { machine, percentile } from './support/machine.js';

const CURRENT_CALLS = 10_000;
const RENDERS = 200;
const WARM_UP = 200;
const DAY_MS = 86_400_000;
const RANGE_START = Date.parse('2026-01-01T00:00:00Z');
const RANGE_DAYS = 365;

/** mulberry32: a tiny seeded generator, so the instants are the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = seededRandom(20_260_308);
const users = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${index}`);

function benchSchedule(): ScheduleDefinition {
  const overrides: Override[] = Array.from({ length: 20 }, (_, index) => {
    const start = RANGE_START + Math.floor(random() * RANGE_DAYS * DAY_MS);
    const hours = 2 + Math.floor(random() * 70);
    return {
      id: `override-${index}`,
      userId: `cover-${index % 5}`,
      start: new Date(start).toISOString(),
      end: new Date(start + hours * 3_600_000).toISOString(),
      reason: 'bench',
    };
  });
  return {
    timezone: 'America/New_York',
    layers: [
      { userIds: users('primary', 8), rotationType: 'weekly', startTime: '2025-06-02T09:00:00' },
      { userIds: users('secondary', 6), rotationType: 'weekly', startTime: '2025-06-04T17:30:00-04:00' },
      { userIds: users('dba', 5), rotationType: 'daily', startTime: '2025-11-01T02:30:00' },
      { userIds: users('night', 4), rotationType: 'daily', startTime: '2025-09-01T22:00:00Z' },
      { userIds: users('lead', 3), rotationType: 'daily', startTime: '2026-01-05T08:00:00+01:00' },
    ],
    overrides,
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * Wall-clock percentiles per call, and the process CPU time per call over the whole run: on a
 * shared, loaded machine the tail of the first is mostly waiting for a core, the second is not.
 */
function time(calls: number, work: () => unknown) {
  for (let index = 0; index < WARM_UP; index++) work();
  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < calls; index++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = samples.sort((a, b) => a - b);
  return {
    calls,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(sorted.reduce((sum, ms) => sum + ms, 0) / calls),
    max_ms: round(sorted[sorted.length - 1]!),
    cpu_mean_ms: round((cpu.user + cpu.system) / 1000 / calls),
  };
}

const randomInstant = () => new Date(RANGE_START + Math.floor(random() * RANGE_DAYS * DAY_MS));
const isActiveUser = (userId: string) => userId !== 'primary-3';

function main() {
  const definition = benchSchedule();
  let nobody = 0;
  const current = time(CURRENT_CALLS, () => currentOnCall(definition, randomInstant(), isActiveUser) ?? nobody++);
  let segments = 0;
  const render = time(RENDERS, () => {
    const since = randomInstant();
    segments += renderSchedule(
      definition,
      since,
      new Date(since.getTime() + MAX_RENDER_DAYS * DAY_MS),
      isActiveUser,
    ).length;
  });
  const results = {
    benchmark: 'schedules',
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1m: Math.round(loadavg()[0]! * 10) / 10,
    settings: {
      timezone: definition.timezone,
      layers: definition.layers.map((layer) => `${layer.rotationType} × ${layer.userIds.length} users`),
      overrides: definition.overrides.length,
      inactive_users: 1,
      instants: `uniform over ${RANGE_DAYS} days from 2026-01-01, seeded`,
      warm_up_calls: WARM_UP,
    },
    current_on_call: { ...current, nobody_on_call: nobody },
    render_90_days: { ...render, mean_segments: Math.round(segments / (RENDERS + WARM_UP)) },
  };
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'schedules.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

main();
