/**
 * The contract of SPEC.md's "Endpoints", as a REST client written from it sees it: for every
 * endpoint the method and the path, the fields SPEC.md names at the place it names them (bare at
 * the top level where it names the top-level fields, inside `{success, data}` where it shows that
 * envelope or says "not shown"), and the values it names (incident `triggered`, job `active`,
 * last_result `success`, sync `running`, current_oncall.source `layer`/`override`, the channel
 * types, the record field types). The real platform on a random port, over real HTTP. The PUT
 * bodies are whole resources, so the test holds whether or not PUT accepts partial bodies.
 * docs/response-shapes.md (the README's table of shapes) lists the same endpoints and shapes; the last test holds the two together.
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startAnthropicStandin, text, type AnthropicStandin } from './support/anthropic-standin.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type ApiResponse, type Caller, type TestApp } from './support/test-app.js';
import { tenantWithLongRunners } from './support/long-runner-tenant.js';
import { waitFor } from './support/wait-for.js';

const SYNC_JOBS = ['query_history', 'table_storage', 'cluster_metrics', 'wlm_queue_stats', 'alert_events'];
/** Once a day at midnight: no scheduled run disturbs the test, yet the scheduler runs. */
const DAILY = SYNC_JOBS.map((job) => `${job}=86400`).join(',');
const MARKDOWN = '## Your warehouse\n\nNo slow queries **right now**.';

let app: TestApp;
let model: AnthropicStandin;
/** A notification receiver that fails every request (the channel test's downstream error). */
let failing: HttpReceiver;

test.before(async () => {
  model = await startAnthropicStandin(() => ({ content: [text(MARKDOWN)] }));
  failing = await startHttpReceiver(() => ({ status: 500, body: 'receiver exploded' }));
  app = await startTestApp({
    env: {
      SYNC_SCHEDULER: 'on',
      SYNC_INTERVALS: DAILY,
      SYNC_STREAM_PERIOD_SECONDS: '1',
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      ANTHROPIC_API_KEY: 'sk-ant-contract',
      ANTHROPIC_BASE_URL: model.url,
    },
  });
  // The embedded PostgreSQL opens on first use: open it before the tests (see sync.http.test.ts).
  await app.platform.syncStore.ping();
});
test.after.always(async () => {
  await app?.close();
  await model?.close();
  await failing?.stop();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/;
const ISO_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Json = Record<string, any>;

/** A success in the platform envelope: `{ success: true, data }`; answers `data`. */
function enveloped(t: ExecutionContext, response: ApiResponse, status = 200): any {
  t.is(response.status, status, JSON.stringify(response.body));
  t.regex(response.headers.get('content-type') ?? '', /^application\/json/);
  t.is(response.body?.success, true, 'enveloped');
  t.true('data' in response.body, 'enveloped');
  return response.body.data;
}

/** A success whose top-level fields SPEC.md names: those fields at the top level, no envelope. */
function bare(t: ExecutionContext, response: ApiResponse, fields: string[], status = 200): Json {
  t.is(response.status, status, JSON.stringify(response.body));
  t.regex(response.headers.get('content-type') ?? '', /^application\/json/);
  t.false('data' in response.body, 'no envelope');
  for (const field of fields) t.true(field in response.body, `top-level ${field}`);
  return response.body;
}

const get = (caller: Caller, path: string) => app.request('GET', path, { caller });
const post = (caller: Caller, path: string, body: unknown = {}) => app.request('POST', path, { caller, body });
const put = (caller: Caller, path: string, body: unknown) => app.request('PUT', path, { caller, body });
const del = (caller: Caller, path: string) => app.request('DELETE', path, { caller });

async function newUser(t: ExecutionContext, caller: Caller, name = 'Ada') {
  return enveloped(
    t,
    await post(caller, '/users', {
      email: `${name.toLowerCase()}-${randomUUID()}@example.com`,
      name,
      role_id: 'viewer',
      group_ids: [],
    }),
    201,
  );
}

async function webhookChannel(t: ExecutionContext, caller: Caller, url = 'https://hooks.example/contract') {
  return enveloped(
    t,
    await post(caller, '/notification-channels', {
      name: 'hook',
      type: 'webhook',
      config: { url, headers: {}, method: 'POST' },
    }),
    201,
  );
}

async function policyTo(t: ExecutionContext, caller: Caller, channelId: string) {
  return enveloped(
    t,
    await post(caller, '/api/v1/escalation-policies', {
      name: 'Warehouse on-call',
      description: 'pages the team',
      repeat_interval_minutes: 0,
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channelId }] }],
    }),
    201,
  );
}

// ---- Users ----

test('users: POST, GET list and one, PUT is_active false, DELETE; the User fields at data', async (t) => {
  const caller = app.newTenant();
  const created = await newUser(t, caller, 'Grace');
  for (const [field, check] of Object.entries(USER_FIELDS))
    t.true(check(created[field]), `${field}: ${JSON.stringify(created[field])}`);
  t.like(created, { name: 'Grace', role_id: 'viewer', group_ids: [], is_active: true });

  const listed = enveloped(t, await get(caller, '/users'));
  t.true(Array.isArray(listed) && listed.some((user: Json) => user.id === created.id));
  t.deepEqual(enveloped(t, await get(caller, `/api/v1/users/${created.id}`)), created, 'also under /api/v1');
  t.deepEqual(enveloped(t, await get(caller, `/users/${created.id}`)).id, created.id);

  const updated = enveloped(
    t,
    await put(caller, `/users/${created.id}`, {
      email: created.email,
      name: 'Grace H.',
      role_id: 'viewer',
      group_ids: [],
      is_active: false,
    }),
  );
  t.like(updated, { id: created.id, name: 'Grace H.', is_active: false });

  t.is((await del(caller, `/users/${created.id}`)).status, 200);
  t.is((await get(caller, `/users/${created.id}`)).status, 404, 'removed from the tenant');
});

const USER_FIELDS: Record<string, (value: unknown) => boolean> = {
  id: (v) => typeof v === 'string' && UUID.test(v),
  email: (v) => typeof v === 'string' && v.includes('@'),
  name: (v) => typeof v === 'string',
  role_id: (v) => typeof v === 'string',
  group_ids: (v) => Array.isArray(v),
  created_at: (v) => typeof v === 'string' && ISO.test(v),
  last_login: (v) => v === null || (typeof v === 'string' && ISO.test(v)),
  is_active: (v) => typeof v === 'boolean',
};

// ---- Alert rules and incidents ----

test('alert rules: POST answers {success, data: stored rule}; GET, PUT, PATCH is_enabled, history, DELETE', async (t) => {
  const caller = app.newTenant();
  const policy = await policyTo(t, caller, (await webhookChannel(t, caller)).id);
  const clusterId: string = enveloped(t, await get(caller, '/warehouse/cluster')).clusters[0].cluster_id;
  const fields = {
    name: 'Slow queries',
    description: 'long runners',
    metric: 'query_runtime_seconds',
    condition: 'gt',
    threshold: 600.5,
    evaluation_window_minutes: 5,
    severity: 'critical',
    escalation_policy_id: policy.id,
    cluster_id: clusterId,
    is_enabled: true,
  };
  const response = await post(caller, '/api/v1/alert-rules', fields);
  t.is(response.status, 201, JSON.stringify(response.body));
  t.deepEqual(Object.keys(response.body).sort(), ['data', 'success'], 'SPEC.md: object with success and data');
  const rule = enveloped(t, response, 201);
  t.like(rule, { ...fields, tenant_id: caller.tenantId });
  t.regex(rule.id, UUID);
  t.regex(rule.created_at, ISO);
  t.regex(rule.updated_at, ISO);

  t.true(enveloped(t, await get(caller, '/api/v1/alert-rules')).some((listed: Json) => listed.id === rule.id));
  t.like(enveloped(t, await get(caller, `/api/v1/alert-rules/${rule.id}`)), { id: rule.id, ...fields });
  t.like(enveloped(t, await put(caller, `/api/v1/alert-rules/${rule.id}`, { ...fields, threshold: 900 })), {
    id: rule.id,
    threshold: 900,
  });
  t.like(
    enveloped(t, await app.request('PATCH', `/api/v1/alert-rules/${rule.id}`, { caller, body: { is_enabled: false } })),
    { id: rule.id, is_enabled: false },
  );
  t.true(Array.isArray(enveloped(t, await get(caller, `/api/v1/alert-rules/${rule.id}/history`))));
  t.is((await del(caller, `/api/v1/alert-rules/${rule.id}`)).status, 200);
  t.is((await get(caller, `/api/v1/alert-rules/${rule.id}`)).status, 404);
});

test("an incident the evaluator creates has rule_id, current_value, the rule's severity and status triggered", async (t) => {
  const caller = app.newTenant();
  const policy = await policyTo(t, caller, (await webhookChannel(t, caller)).id);
  enveloped(
    t,
    await post(caller, '/api/v1/simulator/metrics', {
      metric: 'queue_time_seconds',
      value: 99,
      duration_seconds: 3600,
    }),
  );
  const rule = enveloped(
    t,
    await post(caller, '/api/v1/alert-rules', {
      name: 'Queue',
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: policy.id,
    }),
    201,
  );
  let incident: Json | undefined;
  await waitFor(
    async () => {
      incident = enveloped(t, await get(caller, `/api/v1/incidents?rule_id=${rule.id}`))[0];
      return incident !== undefined;
    },
    { timeoutMs: 15_000, intervalMs: 50, message: 'the incident' },
  );
  t.like(incident, { rule_id: rule.id, current_value: 99, severity: 'high', status: 'triggered' });
});

// ---- Escalation policies ----

test('escalation policies: POST, GET list and one with its stages, PUT replaces, DELETE', async (t) => {
  const caller = app.newTenant();
  const channel = await webhookChannel(t, caller);
  const user = await newUser(t, caller);
  const body = {
    name: 'Two stages',
    description: 'channel then user',
    repeat_interval_minutes: 30,
    stages: [
      { stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] },
      { stage_order: 2, delay_minutes: 15, targets: [{ type: 'user', id: user.id, channels: ['email', 'sms'] }] },
    ],
  };
  const policy = enveloped(t, await post(caller, '/api/v1/escalation-policies', body), 201);
  t.like(policy, { name: body.name, description: body.description, repeat_interval_minutes: 30 });
  t.like(policy.stages[1], {
    stage_order: 2,
    delay_minutes: 15,
    targets: [{ type: 'user', id: user.id, channels: ['email', 'sms'] }],
  });
  t.true(
    enveloped(t, await get(caller, '/api/v1/escalation-policies')).some((listed: Json) => listed.id === policy.id),
  );
  t.like(enveloped(t, await get(caller, `/api/v1/escalation-policies/${policy.id}`)), {
    id: policy.id,
    stages: [{ stage_order: 1, delay_minutes: 0 }, { stage_order: 2 }],
  });
  const replaced = enveloped(
    t,
    await put(caller, `/api/v1/escalation-policies/${policy.id}`, { ...body, stages: [body.stages[0]] }),
  );
  t.is(replaced.stages.length, 1);

  const defaulted = enveloped(
    t,
    await post(caller, '/api/v1/escalation-policies', { name: 'No repeat', stages: [body.stages[0]] }),
    201,
  );
  t.is(defaulted.repeat_interval_minutes, 0, 'default 0');
  t.is((await del(caller, `/api/v1/escalation-policies/${policy.id}`)).status, 200);
  t.is((await get(caller, `/api/v1/escalation-policies/${policy.id}`)).status, 404);
});

// ---- On-call schedules ----

test('schedules: POST, GET, PUT, current-oncall answers schedule_id and current_oncall at the top level (source layer, then override), DELETE refused while referenced', async (t) => {
  const caller = app.newTenant();
  const [alice, bob] = [await newUser(t, caller, 'Alice'), await newUser(t, caller, 'Bob')];
  const body = {
    name: 'Primary',
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: [alice.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00+01:00' }],
    overrides: [{ user_id: bob.id, start: '2026-02-01T00:00:00Z', end: '2026-02-02T00:00:00Z', reason: 'swap' }],
  };
  const schedule = enveloped(t, await post(caller, '/schedules', body), 201);
  t.like(schedule, {
    name: 'Primary',
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: [alice.id], rotation_type: 'weekly' }],
    overrides: [{ user_id: bob.id, reason: 'swap' }],
  });
  t.true(enveloped(t, await get(caller, '/schedules')).some((listed: Json) => listed.id === schedule.id));
  const renamed = enveloped(t, await put(caller, `/schedules/${schedule.id}`, { ...body, name: 'Primary on-call' }));
  t.like(renamed, { id: schedule.id, name: 'Primary on-call', timezone: 'Europe/Berlin' });

  for (const [at, source, user] of [
    ['2026-01-20T12:00:00Z', 'layer', alice],
    ['2026-02-01T12:00:00Z', 'override', bob],
  ] as const) {
    for (const prefix of ['', '/api/v1']) {
      const answer = bare(t, await get(caller, `${prefix}/schedules/${schedule.id}/current-oncall?at=${at}`), [
        'schedule_id',
        'current_oncall',
      ]);
      t.is(answer.schedule_id, schedule.id);
      const current = answer.current_oncall as Json;
      t.like(current, { user_id: user.id, name: user.name, email: user.email, source });
      t.regex(current.on_call_since, ISO_OFFSET);
      t.regex(current.on_call_until, ISO_OFFSET);
    }
  }

  const channel = await webhookChannel(t, caller);
  const policy = enveloped(
    t,
    await post(caller, '/api/v1/escalation-policies', {
      name: 'On call',
      stages: [
        {
          stage_order: 1,
          delay_minutes: 0,
          targets: [
            { type: 'schedule', id: schedule.id, channels: ['email'] },
            { type: 'channel', id: channel.id },
          ],
        },
      ],
    }),
    201,
  );
  const refused = await del(caller, `/schedules/${schedule.id}`);
  t.is(refused.status, 409, 'fails while an escalation policy references it');
  t.regex(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
  t.is((await del(caller, `/api/v1/escalation-policies/${policy.id}`)).status, 200);
  t.is((await del(caller, `/schedules/${schedule.id}`)).status, 200);
});

// ---- Notification channels ----

const CHANNEL_CONFIGS = {
  chat: { webhook_url: 'https://chat.example/hooks/T1', channel_name: '#warehouse' },
  email: { recipients: ['dba@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
  pager: {
    integration_key: 'R0UT1NGKEY0000000000000000000032',
    severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
  },
  webhook: { url: 'https://hooks.example/alerts', headers: { 'X-Token': 'abc' }, method: 'PUT' },
} as const;

for (const [type, config] of Object.entries(CHANNEL_CONFIGS)) {
  test(`notification channels of type ${type}: POST, GET list, PUT the configuration, DELETE`, async (t) => {
    const caller = app.newTenant();
    const channel = enveloped(
      t,
      await post(caller, '/notification-channels', { name: `${type} channel`, type, config }),
      201,
    );
    t.like(channel, { name: `${type} channel`, type });
    t.regex(channel.id, UUID);
    t.is(typeof channel.config, 'object');
    t.true(
      enveloped(t, await get(caller, '/notification-channels')).some(
        (listed: Json) => listed.id === channel.id && listed.type === type,
      ),
    );
    const updated = enveloped(
      t,
      await put(caller, `/notification-channels/${channel.id}`, { name: `${type} renamed`, type, config }),
    );
    t.like(updated, { id: channel.id, name: `${type} renamed`, type });
    t.is((await del(caller, `/notification-channels/${channel.id}`)).status, 200);
  });
}

test('a channel test answers top-level success: the downstream outcome, with the downstream error details (a receiver answering 500 is false)', async (t) => {
  const caller = app.newTenant();
  const channel = await webhookChannel(t, caller, `${failing.url}/hook`);
  for (const prefix of ['', '/api/v1']) {
    const answer = bare(t, await post(caller, `${prefix}/notification-channels/${channel.id}/test`), [
      'success',
      'status_code',
      'error',
    ]);
    t.is(answer.success, false, `${prefix}: the receiver answered 500`);
    t.is(answer.status_code, 500);
    t.truthy(answer.error?.message, JSON.stringify(answer.error));
  }
  const policy = await policyTo(t, caller, channel.id);
  const refused = await del(caller, `/notification-channels/${channel.id}`);
  t.is(refused.status, 409, 'fails while an escalation policy references it');
  t.is((await del(caller, `/api/v1/escalation-policies/${policy.id}`)).status, 200);
});

// ---- Data sync ----

async function syncStatus(t: ExecutionContext, caller: Caller): Promise<Json> {
  const status = bare(t, await get(caller, '/api/v1/sync/status'), ['status', 'scheduler_timezone', 'jobs']);
  t.deepEqual(Object.keys(status), ['status', 'scheduler_timezone', 'jobs']);
  return status;
}

test('sync: status, trigger, jobs, pause, resume, history, one run, purge, as SPEC.md names them', async (t) => {
  const caller = app.newTenant();
  await waitFor(async () => (await get(caller, '/api/v1/sync/status')).body.status === 'running', {
    timeoutMs: 10_000,
    intervalMs: 20,
    message: 'the scheduler to run',
  });
  const before = await syncStatus(t, caller);
  t.is(before.status, 'running', 'the scheduler runs');
  t.is(typeof before.scheduler_timezone, 'string');
  t.deepEqual(
    before.jobs.map((job: Json) => job.job_id),
    SYNC_JOBS,
  );
  for (const job of before.jobs) {
    t.like(job, { status: 'active', last_run: null, last_result: null });
    t.is(typeof job.name, 'string');
    t.regex(job.next_run, ISO);
    t.true(Number.isInteger(job.interval_seconds));
  }

  const triggered = bare(
    t,
    await post(caller, '/api/v1/sync/trigger', { job_id: 'table_storage' }),
    ['success', 'triggered_jobs', 'message'],
    202,
  );
  t.like(triggered, { success: true, triggered_jobs: ['table_storage'] });
  t.is(typeof triggered.message, 'string');
  let run: Json | undefined;
  await waitFor(
    async () => {
      run = enveloped(t, await get(caller, '/api/v1/sync/history?job_id=table_storage'))[0];
      return run !== undefined && run.status !== 'running';
    },
    { timeoutMs: 30_000, intervalMs: 50, message: 'the run to finish' },
  );
  t.is(run!.status, 'success');

  const job = (await syncStatus(t, caller)).jobs.find((entry: Json) => entry.job_id === 'table_storage');
  t.is(job.status, 'active');
  t.regex(job.last_run, ISO_MS, 'ISO 8601 with milliseconds');
  t.deepEqual(Object.keys(job.last_result).sort(), ['duration_ms', 'rows_extracted', 'rows_upserted', 'status']);
  t.is(job.last_result.status, 'success');
  for (const field of ['rows_extracted', 'rows_upserted', 'duration_ms'])
    t.true(Number.isInteger(job.last_result[field]), field);

  const jobs = enveloped(t, await get(caller, '/api/v1/sync/jobs'));
  t.deepEqual(
    jobs.map((entry: Json) => entry.job_id),
    SYNC_JOBS,
  );
  t.true(jobs.every((entry: Json) => Number.isInteger(entry.interval_seconds)));

  t.is((await post(caller, '/api/v1/sync/jobs/alert_events/pause')).status, 200);
  t.like(
    (await syncStatus(t, caller)).jobs.find((entry: Json) => entry.job_id === 'alert_events'),
    { status: 'paused', next_run: null },
  );
  t.is((await post(caller, '/api/v1/sync/jobs/alert_events/resume')).status, 200);
  t.is((await syncStatus(t, caller)).jobs.find((entry: Json) => entry.job_id === 'alert_events').status, 'active');

  t.deepEqual(
    enveloped(t, await get(caller, '/api/v1/sync/history?status=success')).map((entry: Json) => entry.log_id),
    [run!.log_id],
  );
  t.like(enveloped(t, await get(caller, `/api/v1/sync/history/${run!.log_id}`)), {
    log_id: run!.log_id,
    status: 'success',
    error: null,
  });
  t.like(enveloped(t, await del(caller, '/api/v1/sync/history?older_than_days=30')), { removed: 0 });
});

test('sync: with every job paused, a trigger answers top-level success false', async (t) => {
  const caller = app.newTenant();
  for (const job of SYNC_JOBS) t.is((await post(caller, `/api/v1/sync/jobs/${job}/pause`)).status, 200);
  const answer = bare(t, await post(caller, '/api/v1/sync/trigger', {}), ['success', 'triggered_jobs', 'message']);
  t.like(answer, { success: false, triggered_jobs: [] });
});

test('sync stream: sync_update events whose data has the shape of GET /api/v1/sync/status', async (t) => {
  const caller = app.newTenant();
  const controller = new AbortController();
  const response = await fetch(`${app.url}/api/v1/sync/stream`, {
    headers: { authorization: `Bearer ${app.token(caller)}` },
    signal: controller.signal,
  });
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const reader = response.body!.getReader();
  let received = '';
  try {
    await waitFor(
      async () => {
        received += new TextDecoder().decode((await reader.read()).value);
        return /event: sync_update\ndata: .*\n/.test(received);
      },
      { timeoutMs: 10_000, intervalMs: 1, message: 'a sync_update' },
    );
  } finally {
    controller.abort();
  }
  const data = JSON.parse(/event: sync_update\ndata: (.*)\n/.exec(received)![1]!);
  const status = await syncStatus(t, caller);
  t.deepEqual(Object.keys(data), Object.keys(status));
  t.deepEqual(
    data.jobs.map((job: Json) => Object.keys(job)),
    status.jobs.map((job: Json) => Object.keys(job)),
  );
  t.is(data.status, 'running');
});

test('/health answers JSON about the warehouse and the relational store; /metrics is Prometheus text with sync duration, rows and errors', async (t) => {
  const health = await app.request('GET', '/health');
  t.is(health.status, 200);
  t.regex(health.headers.get('content-type') ?? '', /^application\/json/);
  t.true('warehouse' in health.body.checks && 'relational_store' in health.body.checks);
  t.is(health.body.checks.relational_store.status, 'up', 'opened and pinged');
  const metrics = await app.request('GET', '/metrics');
  t.is(metrics.status, 200);
  t.regex(metrics.headers.get('content-type') ?? '', /^text\/plain/);
  for (const series of ['sync_job_duration_seconds', 'sync_rows_total', 'sync_runs_total'])
    t.regex(String(metrics.body), new RegExp(`^# TYPE ${series} `, 'm'));
});

// ---- Analytics assistant ----

test('/ask answers top-level response (Markdown), tools_used, usage, rounds and stop_reason beside it', async (t) => {
  const caller = app.newTenant();
  for (const path of ['/ask', '/api/v1/ask']) {
    const answer = bare(t, await post(caller, path, { prompt: 'any slow queries?' }), [
      'response',
      'tools_used',
      'usage',
      'rounds',
      'stop_reason',
    ]);
    t.is(answer.response, MARKDOWN);
  }
  t.is((await post(caller, '/ask', {})).status, 400, 'prompt is required');
});

// ---- Warehouse health ----

test('warehouse: slow queries answer queries[] and generated_at at the top level, with the record field types', async (t) => {
  // The record types need a slow query: a tenant whose simulated warehouse has one now.
  const answer = bare(t, await get(await tenantWithLongRunners(app), '/warehouse/queries/slow'), [
    'queries',
    'generated_at',
  ]);
  t.regex(answer.generated_at, ISO);
  t.true(answer.queries.length > 0, 'the simulated warehouse has long runners');
  for (const query of answer.queries) {
    t.true(Number.isInteger(query.query_id), 'query_id integer');
    t.true(
      Number.isInteger(query.exec_time_seconds) && query.exec_time_seconds > 300,
      `exec_time_seconds integer > 300: ${query.exec_time_seconds}`,
    );
    for (const field of ['user_name', 'database', 'wlm_queue', 'query_text'])
      t.is(typeof query[field], 'string', field);
  }
});

test('warehouse: storage answers tables[] at the top level, with the record field types', async (t) => {
  const caller = app.newTenant();
  const answer = bare(t, await get(caller, '/warehouse/storage'), ['tables']);
  t.true(answer.tables.length > 0);
  for (const table of answer.tables) {
    for (const field of ['schema', 'table_name', 'dist_style', 'sortkey1']) t.is(typeof table[field], 'string', field);
    for (const field of ['size_mb', 'tbl_rows'])
      t.true(Number.isInteger(table[field]), `${field} integer: ${table[field]}`);
    for (const field of ['unsorted_pct', 'pct_ghost_rows']) t.is(typeof table[field], 'number', field);
  }
});

test('warehouse: cluster, spill, vacuum and alerts (shapes not shown) answer in the envelope; a paused cluster is 503 with a message', async (t) => {
  const caller = app.newTenant();
  for (const path of [
    '/warehouse/cluster',
    '/warehouse/queries/spill',
    '/warehouse/tables/vacuum',
    '/warehouse/tables/alerts',
  ]) {
    t.is(typeof enveloped(t, await get(caller, path)), 'object', path);
  }
  enveloped(t, await post(caller, '/api/v1/simulator/cluster', { paused: true }));
  for (const path of ['/warehouse/cluster', '/warehouse/queries/slow', '/warehouse/storage']) {
    const paused = await get(caller, path);
    t.is(paused.status, 503, path);
    t.regex(paused.headers.get('content-type') ?? '', /application\/problem\+json/);
    t.regex(paused.body.detail, /paused/);
  }
});

// ---- Authentication ----

test('401 without a token, 403 with a valid token short of the permission; both problem+json', async (t) => {
  for (const path of [
    '/users',
    '/api/v1/alert-rules',
    '/api/v1/sync/status',
    '/schedules',
    '/notification-channels',
    '/warehouse/storage',
  ]) {
    const refused = await app.request('GET', path);
    t.is(refused.status, 401, path);
    t.regex(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
  }
  const viewer = { ...app.newTenant(), roles: ['viewer'] };
  const forbidden = await post(viewer, '/users', {
    email: 'x@example.com',
    name: 'X',
    role_id: 'viewer',
    group_ids: [],
  });
  t.is(forbidden.status, 403);
  t.regex(forbidden.headers.get('content-type') ?? '', /application\/problem\+json/);
});

/** The endpoints the tests above check bare (SPEC.md names their top-level fields); every other one they check enveloped. */
const CHECKED_BARE = [
  'GET /api/v1/sync/status',
  'POST /api/v1/sync/trigger',
  'POST /ask',
  'GET /warehouse/queries/slow',
  'GET /warehouse/storage',
  'GET /schedules/{id}/current-oncall',
  'POST /notification-channels/{id}/test',
];

test("docs/response-shapes.md (the README's table of shapes) marks bare exactly the endpoints this contract checks bare, each with its SPEC.md line", (t) => {
  const rows = readFileSync(new URL('../docs/response-shapes.md', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  t.true(rows.length >= 20, 'one row per SPEC.md endpoint group');
  const bareRows = rows.filter((row) => row.split('|')[2]!.trim().startsWith('**bare**'));
  const named = bareRows.map((row) => /^\| `([A-Z]+ [^`]+)`/.exec(row)?.[1]).sort();
  t.deepEqual(named, [...CHECKED_BARE].sort());
  for (const row of rows) t.regex(row.split('|')[3]!, /\d/, `a SPEC.md line for ${row.split('|')[1]!.trim()}`);
});
