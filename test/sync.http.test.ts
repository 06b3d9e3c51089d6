import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
/** The platform's clock runs this far ahead of real time (the purge test moves it). */
let clockOffsetMs = 0;
test.before(async () => {
  app = await startTestApp({
    now: () => new Date(Date.now() + clockOffsetMs),
    env: {
      SYNC_SCHEDULER: 'off',
      SYNC_STREAM_PERIOD_SECONDS: '1',
      SYNC_STREAMS_PER_TENANT: '2',
      SYNC_INTERVALS: 'query_history=600',
    },
  });
  // The embedded PostgreSQL opens on first use and its start keeps the event loop busy for a few
  // seconds: open it before the tests so no request races a keep-alive socket closing meanwhile.
  await app.platform.syncStore.ping();
});
test.after.always(async () => app?.close());

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    // A poll interval, not a sleep: the loop ends as soon as the condition holds.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const finished = (caller: Caller, jobId: string) =>
  until(async () => {
    const history = await app.request('GET', `/api/v1/sync/history?job_id=${jobId}`, { caller });
    const entry = history.body.data?.[0];
    return entry && entry.status !== 'running' ? entry : undefined;
  }, `${jobId} to finish`);

test('status lists the five jobs with intervals, next run and the scheduler time zone, at the top level', async (t) => {
  const caller = app.newTenant();
  const status = await app.request('GET', '/api/v1/sync/status', { caller });
  t.is(status.status, 200);
  t.deepEqual(Object.keys(status.body), ['status', 'scheduler_timezone', 'jobs'], "SPEC.md's fields, no envelope");
  t.is(status.body.scheduler_timezone, 'UTC');
  t.is(status.body.status, 'stopped', 'SYNC_SCHEDULER=off');
  t.deepEqual(
    status.body.jobs.map((job: { job_id: string }) => job.job_id),
    ['query_history', 'table_storage', 'cluster_metrics', 'wlm_queue_stats', 'alert_events'],
  );
  const history = status.body.jobs[0];
  t.like(history, { status: 'active', interval_seconds: 600, last_run: null, last_result: null });
  t.regex(history.next_run, /^\d{4}-\d\d-\d\dT\d\d:[0-5]0:00\.000Z$/);
  const jobs = await app.request('GET', '/api/v1/sync/jobs', { caller });
  t.like(jobs.body.data[0], {
    job_id: 'query_history',
    target_table: 'query_history',
    incremental: true,
    state: 'active',
  });
});

test('trigger one job: it runs, rows land in the relational store, status and history show the result', async (t) => {
  const caller = app.newTenant();
  const triggered = await app.request('POST', '/api/v1/sync/trigger', { caller, body: { job_id: 'table_storage' } });
  t.is(triggered.status, 202, JSON.stringify(triggered.body));
  t.like(triggered.body, { success: true, triggered_jobs: ['table_storage'] });
  t.is(triggered.body.data, undefined, 'no envelope');
  const entry = await finished(caller, 'table_storage');
  t.is(entry.status, 'success', JSON.stringify(entry));
  t.true(entry.rows_upserted > 0);
  t.is(await app.platform.syncStore.count('table_storage', caller.envId), entry.rows_upserted);
  const detail = await app.request('GET', `/api/v1/sync/history/${entry.log_id}`, { caller });
  t.like(detail.body.data, { log_id: entry.log_id, job_id: 'table_storage', error: null });
  const status = await app.request('GET', '/api/v1/sync/status', { caller });
  const job = status.body.jobs.find((j: { job_id: string }) => j.job_id === 'table_storage');
  t.regex(job.last_run, /\.\d{3}Z$/);
  t.like(job.last_result, { status: 'success', rows_upserted: entry.rows_upserted, duration_ms: entry.duration_ms });
  // The history filter takes SPEC.md's value, and `succeeded` (the value before it) for one release.
  for (const status of ['success', 'succeeded']) {
    const filtered = await app.request('GET', `/api/v1/sync/history?job_id=table_storage&status=${status}`, { caller });
    t.is(filtered.status, 200, JSON.stringify(filtered.body));
    t.deepEqual(
      filtered.body.data.map((run: { log_id: string }) => run.log_id),
      [entry.log_id],
      status,
    );
  }
  t.deepEqual(
    (await app.request('GET', '/api/v1/sync/history?job_id=table_storage&status=failed', { caller })).body.data,
    [],
  );
  // Another tenant sees none of it.
  t.is((await app.request('GET', `/api/v1/sync/history/${entry.log_id}`, { caller: app.newTenant() })).status, 404);
});

test('pause and resume: twice is a 409; a paused job cannot be triggered; {} skips it', async (t) => {
  const caller = app.newTenant();
  t.is((await app.request('POST', '/api/v1/sync/jobs/wlm_queue_stats/pause', { caller })).status, 200);
  const again = await app.request('POST', '/api/v1/sync/jobs/wlm_queue_stats/pause', { caller });
  t.is(again.status, 409);
  t.regex(again.headers.get('content-type') ?? '', /application\/problem\+json/);
  t.is(
    (await app.request('POST', '/api/v1/sync/trigger', { caller, body: { job_id: 'wlm_queue_stats' } })).status,
    409,
  );
  const all = await app.request('POST', '/api/v1/sync/trigger', { caller, body: {} });
  t.deepEqual(all.body.triggered_jobs, ['query_history', 'table_storage', 'cluster_metrics', 'alert_events']);
  for (const job of all.body.triggered_jobs) await finished(caller, job);
  // A paused job has no next run.
  const paused = (await app.request('GET', '/api/v1/sync/status', { caller })).body.jobs.find(
    (job: { job_id: string }) => job.job_id === 'wlm_queue_stats',
  );
  t.like(paused, { status: 'paused', next_run: null });
  t.is(
    (await app.request('GET', '/api/v1/sync/jobs', { caller })).body.data.find(
      (job: { job_id: string }) => job.job_id === 'wlm_queue_stats',
    ).next_run,
    null,
  );
  t.is((await app.request('POST', '/api/v1/sync/jobs/wlm_queue_stats/resume', { caller })).status, 200);
  t.is((await app.request('POST', '/api/v1/sync/jobs/wlm_queue_stats/resume', { caller })).status, 409);
});

test('with every job paused, a trigger of all answers top-level success false and names none', async (t) => {
  const caller = app.newTenant();
  for (const jobId of ['query_history', 'table_storage', 'cluster_metrics', 'wlm_queue_stats', 'alert_events']) {
    t.is((await app.request('POST', `/api/v1/sync/jobs/${jobId}/pause`, { caller })).status, 200);
  }
  const none = await app.request('POST', '/api/v1/sync/trigger', { caller, body: {} });
  t.is(none.status, 200);
  t.deepEqual(Object.keys(none.body).sort(), ['message', 'success', 'triggered_jobs']);
  t.like(none.body, { success: false, triggered_jobs: [] });
  t.regex(none.body.message, /no job started/);
  const status = await app.request('GET', '/api/v1/sync/status', { caller });
  t.true(
    status.body.jobs.every(
      (job: { status: string; next_run: unknown }) => job.status === 'paused' && job.next_run === null,
    ),
  );
});

test('a failed run shows the same true duration in history and in the status last_result', async (t) => {
  const caller = app.newTenant();
  const jobId = 'cluster_metrics';
  t.is((await app.request('GET', '/api/v1/sync/status', { caller })).status, 200);
  // A run that failed after 9 ms, as the runner records it (events, so the duration is exact).
  const runId = randomUUID();
  const ref = { envId: caller.envId, jobId, runId };
  const metadata = {
    tenantId: caller.tenantId,
    actor: 'system:sync',
    correlationId: runId,
    causationId: runId,
    occurredAt: new Date().toISOString(),
  };
  await app.platform.eventStore.append(`sync-job-${caller.tenantId}-${caller.envId}-${jobId}`, [
    { type: 'SyncRunStarted', data: { ...ref, trigger: 'manual', startedAt: '2026-01-01T00:00:00.000Z' }, metadata },
    {
      type: 'SyncRunFailed',
      data: { ...ref, finishedAt: '2026-01-01T00:00:00.009Z', duration_ms: 9, error: 'warehouse unavailable' },
      metadata,
    },
  ]);
  const entry = await finished(caller, jobId);
  t.like(entry, { status: 'failed', duration_ms: 9, error: 'warehouse unavailable' });
  const job = (await app.request('GET', '/api/v1/sync/status', { caller })).body.jobs.find(
    (j: { job_id: string }) => j.job_id === jobId,
  );
  t.deepEqual(job.last_result, { rows_extracted: 0, rows_upserted: 0, duration_ms: 9, status: 'failed' });
});

test("a job executing now shows running on its own entry; the top-level status is the scheduler's, not the job's", async (t) => {
  const caller = app.newTenant();
  const jobId = 'alert_events';
  const runId = randomUUID();
  const metadata = {
    tenantId: caller.tenantId,
    actor: 'system:sync',
    correlationId: runId,
    causationId: runId,
    occurredAt: new Date().toISOString(),
  };
  await app.platform.eventStore.append(`sync-job-${caller.tenantId}-${caller.envId}-${jobId}`, [
    {
      type: 'SyncRunStarted',
      data: { envId: caller.envId, jobId, runId, trigger: 'manual', startedAt: new Date().toISOString() },
      metadata,
    },
  ]);
  const status = await until(async () => {
    const answer = (await app.request('GET', '/api/v1/sync/status', { caller })).body;
    return answer.jobs.find((job: { job_id: string }) => job.job_id === jobId).status === 'running'
      ? answer
      : undefined;
  }, 'the job to show running');
  t.is(status.status, 'stopped', 'SYNC_SCHEDULER=off: the service is stopped though a job executes');
  t.true(
    status.jobs
      .filter((job: { job_id: string }) => job.job_id !== jobId)
      .every((job: { status: string }) => job.status === 'active'),
  );
});

const badInput: [string, string, string, unknown, number, string | undefined][] = [
  ['unknown job to trigger', 'POST', '/api/v1/sync/trigger', { job_id: 'nope' }, 404, undefined],
  ['unknown job to pause', 'POST', '/api/v1/sync/jobs/nope/pause', undefined, 404, undefined],
  ['unknown history entry', 'GET', `/api/v1/sync/history/${randomUUID()}`, undefined, 404, undefined],
  ['bad from', 'GET', '/api/v1/sync/history?from=yesterday', undefined, 400, '/from'],
  ['bad status', 'GET', '/api/v1/sync/history?status=done', undefined, 400, '/status'],
  ['unknown filter', 'GET', '/api/v1/sync/history?jobid=x', undefined, 400, '/jobid'],
  ['zero days', 'DELETE', '/api/v1/sync/history?older_than_days=0', undefined, 400, '/older_than_days'],
  ['days not a number', 'DELETE', '/api/v1/sync/history?older_than_days=abc', undefined, 400, '/older_than_days'],
  ['extra body field', 'POST', '/api/v1/sync/trigger', { job: 'x' }, 400, undefined],
];
for (const [name, method, path, body, status, pointer] of badInput) {
  test(`bad input: ${name} → ${status} problem+json`, async (t) => {
    const caller = app.newTenant();
    const response = await app.request(method, path, { caller, body });
    t.is(response.status, status, JSON.stringify(response.body));
    t.regex(response.headers.get('content-type') ?? '', /application\/problem\+json/);
    if (pointer) t.true(JSON.stringify(response.body.errors ?? []).includes(pointer), JSON.stringify(response.body));
  });
}

test('sync:read may read but not trigger; no token is a 401', async (t) => {
  const caller = { ...app.newTenant(), roles: ['viewer'] };
  t.is((await app.request('GET', '/api/v1/sync/status', { caller })).status, 200);
  t.is((await app.request('POST', '/api/v1/sync/trigger', { caller, body: {} })).status, 403);
  t.is((await app.request('GET', '/api/v1/sync/status')).status, 401);
});

test.serial('purging history removes old entries, answers the count and records it', async (t) => {
  const caller = app.newTenant();
  await app.request('POST', '/api/v1/sync/trigger', { caller, body: { job_id: 'wlm_queue_stats' } });
  await finished(caller, 'wlm_queue_stats');
  const kept = await app.request('DELETE', '/api/v1/sync/history?older_than_days=1', { caller });
  t.like(kept.body.data, { removed: 0, older_than_days: 1 });
  t.is((await app.request('GET', '/api/v1/sync/history', { caller })).body.data.length, 1);
  clockOffsetMs = 2 * 86_400_000;
  try {
    const purged = await app.request('DELETE', '/api/v1/sync/history?older_than_days=1', { caller });
    t.like(purged.body.data, { removed: 1, older_than_days: 1 });
  } finally {
    clockOffsetMs = 0;
  }
  t.is((await app.request('GET', '/api/v1/sync/history', { caller })).body.data.length, 0);
  const stream = await app.platform.eventStore.readStream(
    `sync-job-${caller.tenantId}-${caller.envId}-wlm_queue_stats`,
  );
  t.like(stream.at(-1), { type: 'SyncHistoryPurged', data: { older_than_days: 1, removed: 1 } });
});

test('the stream sends sync_update at connect and every period; a third stream of the tenant is a 429', async (t) => {
  const caller = app.newTenant();
  const controllers = [new AbortController(), new AbortController()];
  const open = (controller: AbortController) =>
    fetch(`${app.url}/api/v1/sync/stream`, {
      headers: { authorization: `Bearer ${app.token(caller)}` },
      signal: controller.signal,
    });
  const first = await open(controllers[0]!);
  t.is(first.status, 200);
  t.regex(first.headers.get('content-type') ?? '', /text\/event-stream/);
  const second = await open(controllers[1]!);
  const third = await fetch(`${app.url}/api/v1/sync/stream`, {
    headers: { authorization: `Bearer ${app.token(caller)}` },
  });
  t.is(third.status, 429);
  t.regex(third.headers.get('content-type') ?? '', /application\/problem\+json/);
  const reader = first.body!.getReader();
  let text = '';
  await until(
    async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return (text.match(/event: sync_update/g) ?? []).length >= 2 ? true : undefined;
    },
    'two sync_update events',
    10_000,
  );
  const dataText = /event: sync_update\ndata: (.*)\n/.exec(text)![1]!;
  const data = JSON.parse(dataText);
  t.is(data.scheduler_timezone, 'UTC');
  t.is(data.jobs.length, 5);
  // SPEC.md: the data is "the same shape as GET /api/v1/sync/status", byte for byte.
  // The event was sent before the GET: a 5-minute boundary between the two moves next_run on (seen
  // once in CI at 22:30:00), so that value alone may differ; every other byte is the same.
  const status = await app.request('GET', '/api/v1/sync/status', { caller });
  const withoutNextRun = (json: string) => json.replace(/"next_run":"[^"]*"/g, '"next_run":"…"');
  t.is(withoutNextRun(dataText), withoutNextRun(JSON.stringify(status.body)));
  t.deepEqual(
    app.platform.composition.sync.feeds().map((feed) => feed.listeners),
    [2],
    'one shared feed for the environment',
  );
  for (const controller of controllers) controller.abort();
  void second.body?.cancel().catch(() => undefined);
  await until(
    async () => (app.platform.composition.sync.feeds().length === 0 ? true : undefined),
    'feeds released',
    10_000,
  );
  t.is((await open(new AbortController())).status, 200, 'the cap is released with the streams');
});

test('/health reports the relational store; /metrics has the sync series', async (t) => {
  const health = await app.request('GET', '/health');
  t.like(health.body.checks.relational_store, { status: 'up', kind: 'embedded' });
  const metrics = await app.request('GET', '/metrics');
  for (const name of [
    'sync_job_duration_seconds',
    'sync_rows_total',
    'sync_runs_total',
    'sync_job_last_success_timestamp_seconds',
  ])
    t.true(String(metrics.body).includes(name), name);
});
