/**
 * A data-sync job's own heartbeat (issue 38 §3): a job that names a policy and N pages that policy
 * when it has not succeeded within N of its intervals, and the next success resolves the incident.
 * The sync scheduler runs in virtual time (its timers and the platform's clock); the simulated
 * cluster is paused to make the runs fail.
 */
import test from 'ava';
import { virtualClock } from './support/virtual-clock.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import type { NotifyPort } from '../src/gateways/notify/port.js';
import { chatPolicy } from './support/escalation-policy-fixtures.js';

const INTERVAL_MS = 300_000;
// On the interval's grid and a little ahead of real time (tokens are signed in real time).
const clock = virtualClock(Math.ceil(Date.now() / INTERVAL_MS) * INTERVAL_MS);
const T0 = clock.epochMs;
const delivered: NotifyPort = {
  deliver: async (target) => ({ ok: true, medium: target.medium, target: 'test', latency_ms: 1 }),
};

let app: TestApp;
test.before(async () => {
  app = await startTestApp({
    now: clock.now,
    syncTimers: clock.timers('sync'),
    watchTimers: clock.timers('watch'),
    notify: delivered,
    env: {
      SYNC_SCHEDULER: 'on',
      // Only table_storage runs in the test's minutes: the others are daily (at midnight).
      SYNC_INTERVALS:
        'table_storage=300,query_history=86400,cluster_metrics=86400,wlm_queue_stats=86400,alert_events=86400',
    },
  });
  // The embedded PostgreSQL opens on first use, for seconds: before the clock moves, not in a run.
  await app.platform.syncStore.ping();
});
test.after.always(async () => app?.close());

const policyOf = async (caller: Caller) => (await chatPolicy(app, caller, 'Data platform')).policyId;

const platformIncidents = async (caller: Caller) =>
  (await app.request('GET', '/api/v1/incidents?source=platform', { caller })).body.data as any[];

const finishedRuns = async (caller: Caller) =>
  ((await app.request('GET', '/api/v1/sync/history?job_id=table_storage', { caller })).body.data as any[]).filter(
    (run) => run.status !== 'running',
  );

test.serial('a sync job that stops succeeding pages its policy; the next success resolves it', async (t) => {
  const caller = app.newTenant();
  const policyId = await policyOf(caller);
  // Bad input changes nothing.
  const unknownPolicy = await app.request('PUT', '/api/v1/sync/jobs/table_storage/alerting', {
    caller,
    body: { alert_policy_id: '00000000-0000-4000-8000-000000000000' },
  });
  t.is(unknownPolicy.status, 400);
  t.is(
    (await app.request('PUT', '/api/v1/sync/jobs/nope/alerting', { caller, body: { alert_policy_id: null } })).status,
    404,
  );
  const set = await app.request('PUT', '/api/v1/sync/jobs/table_storage/alerting', {
    caller,
    body: { alert_policy_id: policyId, alert_after_missed_runs: 2 },
  });
  t.is(set.status, 200, JSON.stringify(set.body));
  t.deepEqual(set.body.data, { job_id: 'table_storage', alert_policy_id: policyId, alert_after_missed_runs: 2 });
  const jobs = (await app.request('GET', '/api/v1/sync/jobs', { caller })).body.data as any[];
  t.like(
    jobs.find((job) => job.job_id === 'table_storage'),
    { alert_policy_id: policyId, alert_after_missed_runs: 2 },
  );
  t.like(
    jobs.find((job) => job.job_id === 'query_history'),
    { alert_policy_id: null, alert_after_missed_runs: 3 },
  );

  t.is((await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: true } })).status, 200);
  const target = { tenantId: caller.tenantId, envId: caller.envId, jobId: 'table_storage' as const };

  // First missed run: not yet.
  await clock.advanceTo(T0 + INTERVAL_MS);
  await waitFor(async () => (await finishedRuns(caller)).length === 1, { timeoutMs: 15_000, message: 'run 1' });
  t.is((await finishedRuns(caller))[0].status, 'failed');
  t.is(await app.platform.composition.sync.checkJob(target), 'ok', 'one missed run of two');
  t.deepEqual(await platformIncidents(caller), []);

  // Second missed run: the owner's check after the tick pages.
  await clock.advanceTo(T0 + 2 * INTERVAL_MS);
  await waitFor(async () => (await platformIncidents(caller)).length === 1, {
    timeoutMs: 15_000,
    message: 'the sync job incident',
  });
  const [incident] = await platformIncidents(caller);
  t.like(incident, {
    source: 'platform',
    status: 'triggered',
    title: 'Table storage has not succeeded for 2 runs',
    escalation_policy_id: policyId,
    env_id: caller.envId,
    rule_id: null,
    current_value: null,
  });
  t.regex(incident.detail, /paused/, 'the last error is the detail');
  t.is(await app.platform.composition.sync.checkJob(target), 'open', 'checked again: still the one incident');
  t.is((await platformIncidents(caller)).length, 1);

  // The cluster is back: the next scheduled run succeeds and resolves the incident by itself.
  await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: false } });
  await clock.advanceTo(T0 + 3 * INTERVAL_MS);
  await waitFor(async () => (await platformIncidents(caller))[0]?.status === 'resolved', {
    timeoutMs: 60_000,
    message: 'the incident resolved',
  });
  t.is((await finishedRuns(caller))[0].status, 'success');
  t.is((await platformIncidents(caller)).length, 1, 'resolved, not reopened');
  const metrics = (await app.request('GET', '/metrics')).body as string;
  t.regex(metrics, /platform_watch_incidents_opened_total\{cause="sync_job"\} 1/);
  t.regex(metrics, /platform_watch_failing\{cause="sync_job"\} 0/);
});

test.serial('a job without a policy, or paused, never pages', async (t) => {
  const caller = app.newTenant();
  const target = { tenantId: caller.tenantId, envId: caller.envId, jobId: 'wlm_queue_stats' as const };
  t.is((await app.request('POST', '/api/v1/sync/jobs/wlm_queue_stats/pause', { caller })).status, 200);
  const policyId = await policyOf(caller);
  await app.request('PUT', '/api/v1/sync/jobs/wlm_queue_stats/alerting', {
    caller,
    body: { alert_policy_id: policyId, alert_after_missed_runs: 1 },
  });
  await clock.advance(10 * INTERVAL_MS);
  t.is(await app.platform.composition.sync.checkJob(target), 'ok', 'paused: not watched');
  const unwatched = { ...target, jobId: 'alert_events' as const };
  t.is(await app.platform.composition.sync.checkJob(unwatched), 'ok', 'no policy named');
  t.deepEqual(await platformIncidents(caller), []);
});
