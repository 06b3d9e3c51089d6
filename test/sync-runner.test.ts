import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { validatingEventStore } from '../src/eventstore/validating.js';
import { syncJobStream } from '../src/events/sync-job.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { INITIAL_BACKFILL_MS } from '../src/process/sync/jobs.js';
import {
  markInterruptedRun,
  runSyncJob,
  startSyncRun,
  TAKEOVER_GRACE_MS,
  type SyncJobTarget,
} from '../src/process/sync/run-sync-job.js';
import { openPgliteConnection } from '../src/syncstore/pglite-connection.js';
import { PGLITE_TEMPLATE_DIR } from './support/pglite-template-dir.js';
import { createSyncStore, type SyncStore } from '../src/syncstore/store.js';

const START = Date.parse('2026-03-02T03:00:00Z');
let store: SyncStore;

test.before(async () => {
  store = createSyncStore(await openPgliteConnection({ templateDir: PGLITE_TEMPLATE_DIR }));
  await store.migrate();
});
test.after.always(() => store?.close());

function harness() {
  let nowMs = START;
  const now = () => new Date(nowMs);
  const eventStore = validatingEventStore(
    openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'sync-')), 'e.db') }),
  );
  const { gateway, control } = createSimulatedWarehouse({ now });
  const commandDeps = { eventStore, now, waitForProjections: async () => true };
  const target: SyncJobTarget = { tenantId: randomUUID(), envId: randomUUID(), jobId: 'query_history' };
  const events = async () =>
    (await eventStore.readStream(syncJobStream(target.tenantId, target.envId, target.jobId))).map((e) => e.type);
  const deps = { commandDeps, warehouse: gateway, store, instanceId: 'host-a', runTimeoutMs: 3_600_000 };
  return { deps, control, target, events, advance: (ms: number) => (nowMs += ms), now };
}

async function storedIds(envId: string) {
  const rows = await store.query<{ id: string }>(
    "SELECT cluster_id || '/' || query_id AS id FROM query_history WHERE env_id = $1",
    [envId],
  );
  return rows.map((row) => row.id).sort();
}

async function sourceIds(h: ReturnType<typeof harness>) {
  const queries = await h.deps.warehouse.finishedQueries(h.target.envId, {
    from: new Date(START - INITIAL_BACKFILL_MS),
    to: h.now(),
  });
  return queries.map((q) => `${q.cluster_id}/${q.query_id}`).sort();
}

test.serial(
  'an incremental run copies the backfill; the next copies only what is new; together exactly the source rows',
  async (t) => {
    const h = harness();
    const first = await runSyncJob(h.deps, h.target, 'manual');
    t.is(first?.status, 'succeeded');
    t.deepEqual(await storedIds(h.target.envId), await sourceIds(h));
    h.advance(10 * 60_000);
    const second = await runSyncJob(h.deps, h.target, 'schedule');
    t.like(second, { status: 'succeeded', high_water: h.now().toISOString() });
    // Ten minutes (plus the late-arrival overlap) instead of a day.
    t.true(
      second?.status === 'succeeded' &&
        first?.status === 'succeeded' &&
        second.rows_extracted * 10 < first.rows_extracted,
    );
    t.deepEqual(await storedIds(h.target.envId), await sourceIds(h));
    t.deepEqual(await h.events(), ['SyncRunStarted', 'SyncRunSucceeded', 'SyncRunStarted', 'SyncRunSucceeded']);
  },
);

test.serial(
  'a run killed mid-batch is marked interrupted at start-up, and the re-run leaves exactly the source rows',
  async (t) => {
    const h = harness();
    const { runId } = await startSyncRun(h.deps, h.target, 'schedule');
    t.truthy(runId);
    // The process dies after writing part of the first page.
    const page = await h.deps.warehouse.finishedQueries(h.target.envId, {
      from: new Date(START - INITIAL_BACKFILL_MS),
      to: new Date(START - INITIAL_BACKFILL_MS + 3_600_000),
    });
    t.true(page.length > 10);
    await store.upsert(
      'query_history',
      page.slice(0, 7).map((q) => ({
        env_id: h.target.envId,
        cluster_id: q.cluster_id,
        query_id: q.query_id,
        end_time: q.end_time,
        synced_at: new Date(),
      })),
    );
    t.is(await runSyncJob(h.deps, h.target, 'schedule'), null, 'still running: no second run');
    t.true(await markInterruptedRun(h.deps, h.target));
    t.false(await markInterruptedRun(h.deps, h.target), 'once only');
    t.is((await runSyncJob(h.deps, h.target, 'schedule'))?.status, 'succeeded');
    t.deepEqual(await storedIds(h.target.envId), await sourceIds(h));
    const stream = await h.deps.commandDeps.eventStore.readStream(
      syncJobStream(h.target.tenantId, h.target.envId, h.target.jobId),
    );
    t.like(stream[1], { type: 'SyncRunFailed', data: { runId, error: 'interrupted' } });
  },
);

test.serial('two schedulers racing on one job produce one run', async (t) => {
  const h = harness();
  const outcomes = await Promise.all([
    runSyncJob(h.deps, h.target, 'schedule'),
    runSyncJob(h.deps, h.target, 'schedule'),
  ]);
  t.is(outcomes.filter((outcome) => outcome !== null).length, 1);
  t.deepEqual(await h.events(), ['SyncRunStarted', 'SyncRunSucceeded']);
});

test.serial(
  'a failing warehouse is a failed run with the error; the job stays active and the next run succeeds',
  async (t) => {
    const h = harness();
    h.control.setPaused(h.target.envId, true);
    const failed = await runSyncJob(h.deps, h.target, 'schedule');
    t.like(failed, { status: 'failed' });
    t.regex(failed?.status === 'failed' ? failed.error : '', /paused/);
    h.control.setPaused(h.target.envId, false);
    t.is((await runSyncJob(h.deps, h.target, 'schedule'))?.status, 'succeeded');
    t.deepEqual(await h.events(), ['SyncRunStarted', 'SyncRunFailed', 'SyncRunStarted', 'SyncRunSucceeded']);
  },
);

test.serial('every built-in job runs against the simulated warehouse and fills its table', async (t) => {
  const h = harness();
  for (const jobId of ['table_storage', 'cluster_metrics', 'wlm_queue_stats', 'alert_events'] as const) {
    const outcome = await runSyncJob(h.deps, { ...h.target, jobId }, 'manual');
    t.is(outcome?.status, 'succeeded', jobId);
    t.true((await store.count(jobId, h.target.envId)) > 0, jobId);
  }
});

test.serial(
  "a second instance starting leaves a live instance's run alone, and takes the job over once the run is past its staleAfter",
  async (t) => {
    const h = harness();
    const other = { ...h.deps, instanceId: 'host-b' };
    const { runId } = await startSyncRun(h.deps, h.target, 'schedule');
    h.advance(60_000);
    t.false(await markInterruptedRun(other, h.target), "host-a's run is fresh: host-b's start-up leaves it");
    t.is(await runSyncJob(other, h.target, 'schedule'), null, 'and runs nothing beside it');
    // host-a dies silently; an hour of timeout and five minutes of grace later host-b's next start takes over.
    h.advance(h.deps.runTimeoutMs + TAKEOVER_GRACE_MS);
    t.is((await runSyncJob(other, h.target, 'schedule'))?.status, 'succeeded');
    const stream = await h.deps.commandDeps.eventStore.readStream(
      syncJobStream(h.target.tenantId, h.target.envId, h.target.jobId),
    );
    t.deepEqual(
      stream.map((e) => e.type),
      ['SyncRunStarted', 'SyncRunFailed', 'SyncRunStarted', 'SyncRunSucceeded'],
    );
    t.like(stream[1], { data: { runId, error: 'interrupted' } });
    t.like(stream[2], { data: { instanceId: 'host-b' } });
  },
);

test.serial(
  'a run that passes its timeout stops at the next page and is recorded as failed (timed out); the high-water mark stays',
  async (t) => {
    const h = harness();
    // Every page of the source takes 25 minutes of the clock: the third page starts past the hour.
    const slow = new Proxy(h.deps.warehouse, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'finishedQueries') return value;
        return async (...args: unknown[]) => {
          const page = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          h.advance(25 * 60_000);
          return page;
        };
      },
    });
    const outcome = await runSyncJob({ ...h.deps, warehouse: slow }, h.target, 'manual');
    t.like(outcome, { status: 'failed' });
    t.regex(outcome?.status === 'failed' ? outcome.error : '', /timed out.*3600 s/);
    const stream = await h.deps.commandDeps.eventStore.readStream(
      syncJobStream(h.target.tenantId, h.target.envId, h.target.jobId),
    );
    t.deepEqual(
      stream.map((e) => e.type),
      ['SyncRunStarted', 'SyncRunFailed'],
    );
  },
);
