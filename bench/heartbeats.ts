/**
 * The heartbeat checker with 1,000 heartbeats in a tenant (issue 38): BENCH_HEARTBEATS (default
 * 1,000) in one tenant, beside BENCH_OTHER_HEARTBEATS (default 9,000) in 20 other tenants that are
 * never due, all with a 1-hour interval and 5 minutes' grace. Three phases, each a series of ticks
 * of the real checker (src/process/heartbeats/heartbeat-checker.ts) over embedded SQLite with the
 * projections on the writer thread:
 *   quiet     every heartbeat pinged a minute ago: the indexed read (`dueAt <= now`) finds none;
 *   all_due   an hour and six minutes on, the tenant's 1,000 are all overdue at once: the first
 *             tick opens 1,000 incidents (one subject-incident open each), the worst a tick can meet;
 *   paged     the ticks after it: every one is marked paged for this silence, the read finds none.
 * The figure to hold against HEARTBEAT_CHECK_INTERVAL_SECONDS (30 s) is all_due's first tick.
 * Writes bench/results/heartbeats.json.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { heartbeatsProjection } from '../projections/heartbeats.js';
import { incidentsProjection } from '../projections/incidents.js';
import { iamChangeStamps } from '../src/auth/iam-change-stamps.js';
import { projectionThread } from '../src/composition/projection-thread.js';
import { heartbeatPingStream, heartbeatStream } from '../src/events/heartbeat.js';
import type { EventToAppend } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createHeartbeatChecker } from '../src/process/heartbeats/heartbeat-checker.js';
import { createSubjectIncidents } from '../src/process/subject-incidents.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { machine } from './support/machine.js';
import { appendAndProject, benchMetadata } from './support/bench-appends.js';

const HEARTBEATS = Number(process.env.BENCH_HEARTBEATS ?? 1000);
const OTHERS = Number(process.env.BENCH_OTHER_HEARTBEATS ?? 9000);
const OTHER_TENANTS = 20;
const TICKS = Number(process.env.BENCH_HEARTBEAT_TICKS ?? 5);
const CHECK_INTERVAL_MS = 30_000;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-heartbeats-'));
  const files = { eventsFile: join(dir, 'events.db'), readModelsFile: join(dir, 'read.db') };
  const eventStore = openSqliteEventStore({ filename: files.eventsFile });
  const readStore = openSqliteReadStore(files.readModelsFile);
  const logger = pino({ level: 'silent' });
  const runner = projectionThread({
    ...files,
    secrets: { key: randomBytes(32), previousKeys: [] },
    secretsKeyFile: join(dir, 'secrets.key'),
    projections: [heartbeatsProjection, incidentsProjection],
    iamProjections: new Set(),
    stamps: iamChangeStamps(),
    logLevel: 'silent',
    logger,
  });
  await runner.start();
  let clock = new Date('2026-11-20T12:00:00Z');
  const now = () => clock;
  const tenant = randomUUID();
  const others = Array.from({ length: OTHER_TENANTS }, () => randomUUID());
  const policyId = randomUUID();
  const meta = (tenantId: string) => benchMetadata(tenantId, clock);
  const appendAll = (events: { stream: string; event: EventToAppend }[]) =>
    appendAndProject(eventStore, runner, events);

  const setUpStarted = performance.now();
  const all = Array.from({ length: HEARTBEATS + OTHERS }, (_, n) => ({
    id: randomUUID(),
    tenantId: n < HEARTBEATS ? tenant : others[n % OTHER_TENANTS]!,
  }));
  await appendAll(
    all.map(({ id, tenantId }, n) => ({
      stream: heartbeatStream(id),
      event: {
        type: 'HeartbeatCreated',
        metadata: meta(tenantId),
        data: {
          heartbeatId: id,
          name: `job ${n}`,
          intervalSeconds: 3600,
          graceSeconds: 300,
          escalationPolicyId: policyId,
          severity: 'high',
          enabled: true,
          tokenHash: randomBytes(32).toString('hex'),
          tokenHint: 'abcd',
        },
      },
    })),
  );
  const ping = (heartbeats: typeof all) =>
    appendAll(
      heartbeats.map(({ id, tenantId }) => ({
        stream: heartbeatPingStream(id),
        event: {
          type: 'HeartbeatPinged',
          metadata: meta(tenantId),
          data: { heartbeatId: id, status: 'success', message: null, at: clock.toISOString() },
        },
      })),
    );
  await ping(all);
  const setUpSeconds = (performance.now() - setUpStarted) / 1000;

  const checker = createHeartbeatChecker({
    reader: readStore,
    subjectIncidents: createSubjectIncidents({
      eventStore,
      now,
      reader: readStore,
      waitForProjections: (position) => runner.waitFor(position, 60_000),
    }),
    now,
    owns: () => true,
    newCorrelationId: randomUUID,
  });
  const ticks = async (count: number) => {
    const figures = [];
    for (let i = 0; i < count; i++) {
      const report = await checker.tick();
      figures.push({ duration_ms: +report.durationMs.toFixed(1), due: report.due, opened: report.opened });
      clock = new Date(clock.getTime() + CHECK_INTERVAL_MS);
    }
    return figures;
  };
  clock = new Date(clock.getTime() + 60_000);
  const quiet = await ticks(TICKS);
  // The others keep pinging; the tenant's 1,000 fall silent past interval + grace.
  clock = new Date(clock.getTime() + 3600_000 + 6 * 60_000);
  await ping(all.slice(HEARTBEATS));
  const [first, ...paged] = await ticks(TICKS + 1);
  await runner.stop();
  await eventStore.close();
  await readStore.close();

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const results = {
    benchmark: 'heartbeats',
    date: new Date().toISOString(),
    machine: machine(),
    settings: {
      heartbeats_in_the_tenant: HEARTBEATS,
      heartbeats_in_other_tenants: OTHERS,
      other_tenants: OTHER_TENANTS,
      check_interval_ms: CHECK_INTERVAL_MS,
      stores: 'embedded SQLite, projections on the writer thread',
      set_up_seconds: +setUpSeconds.toFixed(1),
      // Other sessions share the machine: the figures are from a loaded machine when this is high.
      load_average_1m: +loadavg()[0]!.toFixed(1),
    },
    quiet: { ticks: quiet, median_tick_ms: median(quiet.map((t) => t.duration_ms)) },
    all_due: { first_tick: first, within_the_interval: first!.duration_ms < CHECK_INTERVAL_MS },
    paged: { ticks: paged, median_tick_ms: median(paged.map((t) => t.duration_ms)) },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/heartbeats.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
