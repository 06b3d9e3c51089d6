import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { validatingEventStore } from '../src/eventstore/validating.js';
import { SYNC_JOB_IDS, syncJobStream } from '../src/events/sync-job.js';
import { ownerOf } from '../src/cluster/membership.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { nextRunAfter } from '../src/process/sync/schedule-grid.js';
import { createSyncScheduler, syncJobShareKey, type Timers } from '../src/process/sync/sync-scheduler.js';
import { openPgliteConnection } from '../src/syncstore/pglite-connection.js';
import { PGLITE_TEMPLATE_DIR } from './support/pglite-template-dir.js';
import { createSyncStore } from '../src/syncstore/store.js';

const grid: [string, string, number, string, string][] = [
  ['every 5 minutes, UTC', '2026-03-02T10:02:30.000Z', 300, 'UTC', '2026-03-02T10:05:00.000Z'],
  ['exactly on a slot goes to the next', '2026-03-02T10:05:00.000Z', 300, 'UTC', '2026-03-02T10:10:00.000Z'],
  [
    'hourly in Kolkata (UTC+5:30) is on the local hour',
    '2026-03-02T10:02:00.000Z',
    3600,
    'Asia/Kolkata',
    '2026-03-02T10:30:00.000Z',
  ],
  [
    'daily in Berlin is local midnight',
    '2026-03-02T10:00:00.000Z',
    86_400,
    'Europe/Berlin',
    '2026-03-02T23:00:00.000Z',
  ],
  [
    'an interval that does not divide the day restarts at midnight',
    '2026-03-02T23:50:00.000Z',
    7000,
    'UTC',
    '2026-03-03T00:00:00.000Z',
  ],
];
for (const [name, after, interval, zone, expected] of grid) {
  test(`next run: ${name}`, (t) => {
    t.is(nextRunAfter(new Date(after), interval, zone).toISOString(), expected);
  });
}

/** Virtual timers: nothing fires until the test advances the clock. */
function virtualTimers(clock: { ms: number }) {
  const pending = new Map<number, { at: number; callback: () => void }>();
  let ids = 0;
  const timers: Timers = {
    setTimeout: (callback, ms) => (pending.set(++ids, { at: clock.ms + ms, callback }), ids),
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  const advanceTo = (ms: number) => {
    for (;;) {
      const due = [...pending.entries()].filter(([, timer]) => timer.at <= ms).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      clock.ms = due[1].at;
      due[1].callback();
    }
    clock.ms = ms;
  };
  return { timers, advanceTo, pending: () => pending.size };
}

test('the scheduler runs each job on its grid in virtual time, skips paused jobs, and two schedulers run a job once', async (t) => {
  t.timeout(120_000);
  const clock = { ms: Date.parse('2026-03-02T10:02:00.000Z') };
  const now = () => new Date(clock.ms);
  const store = createSyncStore(await openPgliteConnection({ templateDir: PGLITE_TEMPLATE_DIR }));
  t.teardown(() => store.close());
  await store.migrate();
  const eventStore = validatingEventStore(
    openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'sched-')), 'e.db') }),
  );
  const { gateway } = createSimulatedWarehouse({ now });
  const runner = {
    commandDeps: { eventStore, now, waitForProjections: async () => true },
    warehouse: gateway,
    store,
    instanceId: 'host-a',
    runTimeoutMs: 3_600_000,
  };
  // Only query_history runs (keeps the test light); wlm_queue_stats is due at 10:05 too but paused.
  const paused = new Set(['wlm_queue_stats', 'cluster_metrics', 'alert_events']);
  const { timers, advanceTo } = virtualTimers(clock);
  const options = {
    runner,
    intervals: { query_history: 300 },
    timeZone: 'UTC',
    now,
    timers,
    isPaused: async (_t: string, _e: string, job: string) => paused.has(job),
  };
  const first = createSyncScheduler(options);
  const second = createSyncScheduler(options);
  const tenantId = randomUUID();
  const envId = randomUUID();
  for (const scheduler of [first, second]) {
    scheduler.start();
    scheduler.enroll(tenantId, envId);
  }
  const starts = async (jobId: 'query_history' | 'wlm_queue_stats' | 'table_storage') =>
    (await eventStore.readStream(syncJobStream(tenantId, envId, jobId)))
      .filter((e) => e.type === 'SyncRunStarted')
      .map((e) => e.metadata.occurredAt);

  advanceTo(Date.parse('2026-03-02T10:04:59.000Z'));
  await Promise.all([first.idle(), second.idle()]);
  t.deepEqual(await starts('query_history'), [], 'nothing before the first slot');
  advanceTo(Date.parse('2026-03-02T10:05:00.000Z'));
  await Promise.all([first.idle(), second.idle()]);
  advanceTo(Date.parse('2026-03-02T10:10:00.000Z'));
  await Promise.all([first.idle(), second.idle()]);
  t.deepEqual(
    await starts('query_history'),
    ['2026-03-02T10:05:00.000Z', '2026-03-02T10:10:00.000Z'],
    'one run per slot although two schedulers fired',
  );
  t.deepEqual(await starts('wlm_queue_stats'), [], 'paused');
  t.deepEqual(await starts('table_storage'), [], 'hourly: not yet');
  await first.stop();
  await second.stop();
});

test("in a cluster each job's scheduled run is started by the member that owns it, and by no other", async (t) => {
  const clock = { ms: Date.parse('2026-03-02T10:02:00.000Z') };
  const now = () => new Date(clock.ms);
  const { timers, advanceTo } = virtualTimers(clock);
  const tenantId = randomUUID();
  const environments = Array.from({ length: 6 }, () => randomUUID());
  // Paused: a scheduler asks whether a job is paused only when it is about to start it.
  const asked: { member: string; key: string }[] = [];
  const member = (self: string) =>
    createSyncScheduler({
      runner: {} as never,
      intervals: {},
      timeZone: 'UTC',
      now,
      timers,
      owns: (key) => ownerOf(key, ['a', 'b']) === self,
      isPaused: async (tenant, envId, jobId) => {
        asked.push({ member: self, key: syncJobShareKey(tenant, envId, jobId) });
        return true;
      },
    });
  const a = member('a');
  const b = member('b');
  for (const scheduler of [a, b]) {
    scheduler.start();
    for (const envId of environments) scheduler.enroll(tenantId, envId);
  }
  advanceTo(Date.parse('2026-03-02T12:00:00.000Z'));
  await Promise.all([a.idle(), b.idle()]);
  const jobs = environments.length * SYNC_JOB_IDS.length;
  t.is(a.ownedJobs() + b.ownedJobs(), jobs);
  t.true(a.ownedJobs() > 0 && b.ownedJobs() > 0);
  const startedBy = new Map<string, Set<string>>();
  for (const { member: m, key } of asked) startedBy.set(key, (startedBy.get(key) ?? new Set()).add(m));
  t.is(startedBy.size, jobs, 'every job came due and was handled');
  for (const [key, members] of startedBy) t.deepEqual([...members], [ownerOf(key, ['a', 'b'])], key);
  await a.stop();
  await b.stop();
});
