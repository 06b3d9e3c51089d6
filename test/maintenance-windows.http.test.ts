/**
 * Maintenance windows over HTTP on the real app (random port): CRUD with ETag and If-Match (stale: 409, as everywhere in the API),
 * `active_at`, end-now, the 400s with their fields, tenant isolation, the audit history, the
 * evaluator silencing a breaching rule whose incident opens at the first tick after the window, and
 * a window created over an open incident holding its escalation until it is ended.
 * The app's clock is virtual (ticks are run by hand; the scheduled evaluator is a day away), and
 * moves by minutes only, so the test tokens stay valid.
 */
import test from 'ava';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let clock = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const minutes = (m: number) => new Date(clock.getTime() + m * 60_000).toISOString();
test.before(async () => {
  app = await startTestApp({ now: () => clock, env: { ALERT_EVALUATION_INTERVAL_SECONDS: '86400' } });
});
test.after.always(async () => app?.close());

async function ruleFor(caller: Caller, extra: Record<string, unknown> = {}) {
  const channel = await app.request('POST', '/notification-channels', {
    caller,
    body: { name: 'ops', type: 'chat', config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'DBA',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  const rule = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: {
      name: 'Queue wait',
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 2,
      severity: 'high',
      escalation_policy_id: policy.body.data.id,
      ...extra,
    },
  });
  if (rule.status !== 201) throw new Error(`rule: ${rule.status} ${JSON.stringify(rule.body)}`);
  return rule.body.data;
}

const windowBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Resize prod',
  reason: 'elastic resize',
  matcher: { all_rules: true },
  starts_at: minutes(0),
  ends_at: minutes(10),
  ...extra,
});

test.serial(
  'create, read with its ETag, replace with If-Match (a stale one is 409, as the platform answers), list what is active at an instant, end it now, delete it',
  async (t) => {
    const caller = app.newTenant();
    const created = await app.request('POST', '/api/v1/maintenance-windows', { caller, body: windowBody() });
    t.is(created.status, 201, JSON.stringify(created.body));
    t.is(created.headers.get('etag'), '"0"');
    const id = created.body.data.id;
    t.is(created.headers.get('location'), `/api/v1/maintenance-windows/${id}`);
    t.like(created.body.data, {
      name: 'Resize prod',
      reason: 'elastic resize',
      matcher: { all_rules: true, rule_ids: [], cluster_ids: [], severities: [] },
      starts_at: minutes(0),
      ends_at: minutes(10),
      recurrence: null,
      active: true,
      next_change_at: minutes(10),
      ended_at: null,
      created_by: caller.userId,
    });

    const got = await app.request('GET', `/api/v1/maintenance-windows/${id}`, { caller });
    t.is(got.status, 200);
    t.is(got.headers.get('etag'), '"0"');

    const stale = await app.request('PUT', `/api/v1/maintenance-windows/${id}`, {
      caller,
      body: windowBody({ reason: 'late' }),
      headers: { 'if-match': '"7"' },
    });
    t.is(stale.status, 409);
    t.is(stale.headers.get('content-type'), 'application/problem+json');
    const replaced = await app.request('PUT', `/api/v1/maintenance-windows/${id}`, {
      caller,
      body: windowBody({ reason: 'resize, retried', ends_at: minutes(20) }),
      headers: { 'if-match': '"0"' },
    });
    t.is(replaced.status, 200, JSON.stringify(replaced.body));
    t.is(replaced.headers.get('etag'), '"1"');
    t.like(replaced.body.data, { reason: 'resize, retried', ends_at: minutes(20) });

    const weekly = await app.request('POST', '/api/v1/maintenance-windows', {
      caller,
      body: {
        name: 'Vacuum',
        reason: 'weekly vacuum',
        matcher: { severities: ['low'] },
        recurrence: { days: ['sun'], start_time: '02:00', duration_minutes: 120, time_zone: 'Europe/Berlin' },
      },
    });
    t.is(weekly.status, 201, JSON.stringify(weekly.body));
    t.like(weekly.body.data, {
      starts_at: null,
      recurrence: { days: ['sun'], start_time: '02:00', duration_minutes: 120, time_zone: 'Europe/Berlin' },
    });

    const activeAt = async (instant: string) =>
      (
        (await app.request('GET', `/api/v1/maintenance-windows?active_at=${encodeURIComponent(instant)}`, { caller }))
          .body.data as any[]
      ).map((w) => w.id);
    t.deepEqual(await activeAt(minutes(5)), [id]);
    t.deepEqual(await activeAt(minutes(25)), []);
    // A Sunday of next July, 02:30 CEST: the weekly vacuum (00:30Z); the one-off is long over. (A
    // Sunday before the window was created would not do: a window silences only from its creation.)
    const julySunday = new Date(Date.UTC(clock.getUTCFullYear() + 1, 6, 1, 0, 30));
    julySunday.setUTCDate(1 + ((7 - julySunday.getUTCDay()) % 7));
    t.deepEqual(await activeAt(julySunday.toISOString()), [weekly.body.data.id]);
    const all = await app.request('GET', '/api/v1/maintenance-windows', { caller });
    // Newest first; both were created at the same (virtual) instant here, so only the set is certain.
    t.deepEqual(all.body.data.map((w: any) => w.id).sort(), [weekly.body.data.id, id].sort());

    const ended = await app.request('POST', `/api/v1/maintenance-windows/${id}/end`, { caller });
    t.is(ended.status, 200);
    t.like(ended.body.data, {
      active: false,
      ended_at: clock.toISOString(),
      ended_by: caller.userId,
      next_change_at: null,
    });
    t.deepEqual(await activeAt(minutes(5)), []);
    t.is(
      (await app.request('PUT', `/api/v1/maintenance-windows/${id}`, { caller, body: windowBody() })).status,
      409,
      'an ended window stays ended',
    );

    const history = await app.request('GET', `/api/v1/maintenance-windows/${id}/events`, { caller });
    t.is(history.status, 200);
    t.deepEqual(
      history.body.data.map((e: any) => [e.type, e.actor]),
      [
        ['MaintenanceWindowCreated', caller.userId],
        ['MaintenanceWindowUpdated', caller.userId],
        ['MaintenanceWindowEnded', caller.userId],
      ],
    );

    const deleted = await app.request('DELETE', `/api/v1/maintenance-windows/${id}`, {
      caller,
      headers: { 'if-match': '"2"' },
    });
    t.is(deleted.status, 200);
    t.is((await app.request('GET', `/api/v1/maintenance-windows/${id}`, { caller })).status, 404);
    t.is(
      (await app.request('GET', `/api/v1/maintenance-windows/${id}/events`, { caller })).body.data.length,
      4,
      'the history outlives the window',
    );
  },
);

test.serial('bad windows are 400 problems naming the field, and change nothing', async (t) => {
  const caller = app.newTenant();
  const other = app.newTenant();
  const foreignRule = await ruleFor(other);
  const cases: [unknown, string][] = [
    [windowBody({ ends_at: minutes(-5) }), '/ends_at'],
    [windowBody({ ends_at: minutes(31 * 24 * 60) }), '/ends_at'],
    [windowBody({ matcher: {} }), '/matcher/all_rules'],
    // Issue 36 item 8: occurrences that never leave a gap would silence for good.
    [
      {
        ...windowBody(),
        starts_at: undefined,
        ends_at: undefined,
        recurrence: {
          days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          start_time: '00:00',
          duration_minutes: 10080,
          time_zone: 'UTC',
        },
      },
      '/recurrence/duration_minutes',
    ],
    [
      {
        ...windowBody(),
        starts_at: undefined,
        ends_at: undefined,
        recurrence: { days: ['sun'], start_time: '00:00', duration_minutes: 10080, time_zone: 'UTC' },
      },
      '/recurrence/duration_minutes',
    ],
    [windowBody({ matcher: { rule_ids: [foreignRule.id] } }), '/matcher/rule_ids/0'],
    [windowBody({ matcher: { rule_ids: ['5b0c8b5e-0000-4000-8000-000000000000'] } }), '/matcher/rule_ids/0'],
  ];
  for (const [body, pointer] of cases) {
    const answer = await app.request('POST', '/api/v1/maintenance-windows', { caller, body });
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.headers.get('content-type'), 'application/problem+json');
    t.true(
      answer.body.errors.some((e: any) => e.path === pointer),
      `${pointer} in ${JSON.stringify(answer.body.errors)}`,
    );
  }
  t.deepEqual((await app.request('GET', '/api/v1/maintenance-windows', { caller })).body.data, []);
  const own = await ruleFor(caller);
  t.is(
    (
      await app.request('POST', '/api/v1/maintenance-windows', {
        caller,
        body: windowBody({ matcher: { rule_ids: [own.id] } }),
      })
    ).status,
    201,
  );
});

test.serial(
  'a window silences only from its creation: one created with a start in the past was not active before it existed (issue 36)',
  async (t) => {
    const caller = app.newTenant();
    const created = await app.request('POST', '/api/v1/maintenance-windows', {
      caller,
      body: windowBody({ starts_at: minutes(-60), ends_at: minutes(60) }),
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const window = created.body.data;
    t.is(window.created_at, minutes(0));
    t.true(window.active);
    t.deepEqual(window.current_occurrence, { starts_at: minutes(0), ends_at: minutes(60) }, 'active from its creation');
    const activeAt = async (instant: string) =>
      (
        (await app.request('GET', `/api/v1/maintenance-windows?active_at=${encodeURIComponent(instant)}`, { caller }))
          .body.data as { id: string }[]
      ).map((w) => w.id);
    t.deepEqual(await activeAt(minutes(-30)), [], 'not active half an hour before it was created');
    t.deepEqual(await activeAt(minutes(0)), [window.id]);
  },
);

test.serial(
  'another tenant neither sees nor changes a window; reading needs alerts:read, writing alerts:write',
  async (t) => {
    const owner = app.newTenant();
    const stranger = app.newTenant();
    const id = (await app.request('POST', '/api/v1/maintenance-windows', { caller: owner, body: windowBody() })).body
      .data.id;
    t.is((await app.request('GET', `/api/v1/maintenance-windows/${id}`, { caller: stranger })).status, 404);
    t.is((await app.request('GET', `/api/v1/maintenance-windows/${id}/events`, { caller: stranger })).status, 404);
    t.is(
      (await app.request('PUT', `/api/v1/maintenance-windows/${id}`, { caller: stranger, body: windowBody() })).status,
      404,
    );
    t.is((await app.request('POST', `/api/v1/maintenance-windows/${id}/end`, { caller: stranger })).status, 404);
    t.is((await app.request('DELETE', `/api/v1/maintenance-windows/${id}`, { caller: stranger })).status, 404);
    t.deepEqual((await app.request('GET', '/api/v1/maintenance-windows', { caller: stranger })).body.data, []);
    t.deepEqual(
      (
        await app.request('GET', `/api/v1/maintenance-windows?active_at=${encodeURIComponent(minutes(1))}`, {
          caller: stranger,
        })
      ).body.data,
      [],
    );
    const viewer = { ...owner, roles: ['viewer'] };
    t.is((await app.request('GET', `/api/v1/maintenance-windows/${id}`, { caller: viewer })).status, 200);
    t.is(
      (await app.request('POST', '/api/v1/maintenance-windows', { caller: viewer, body: windowBody() })).status,
      403,
    );
    t.is(
      (await app.request('GET', `/api/v1/maintenance-windows/${id}`, { caller: owner })).body.data.active,
      true,
      'unchanged by the refused requests',
    );
  },
);

test.serial(
  'a window silences a breaching rule (evaluated, recorded as silenced, no incident); the incident opens at the first tick after it ends',
  async (t) => {
    const caller = app.newTenant();
    t.is(
      (
        await app.request('POST', '/api/v1/simulator/metrics', {
          caller,
          body: { metric: 'queue_time_seconds', value: 45, duration_seconds: 7200 },
        })
      ).status,
      200,
    );
    const rule = await ruleFor(caller);
    const quiet = await ruleFor(caller, { severity: 'low', name: 'Not covered' });
    const window = await app.request('POST', '/api/v1/maintenance-windows', {
      caller,
      body: windowBody({ matcher: { severities: ['high'] } }),
    });
    t.is(window.status, 201);
    const incidentsOf = async (ruleId: string) =>
      (await app.request('GET', `/api/v1/incidents?rule_id=${ruleId}`, { caller })).body.data as any[];
    const metric = async (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${app.url}/metrics`)).text())?.[1] ?? NaN);

    const silencedBefore = await metric('alert_rule_evaluations_silenced_total');
    t.true((await metric('maintenance_windows_active')) >= 1);
    const start = clock;
    for (const m of [0, 5, 9]) {
      clock = new Date(start.getTime() + m * 60_000);
      await app.platform.evaluator.tick();
    }
    t.deepEqual(await incidentsOf(rule.id), [], 'no incident while the window is active');
    t.is((await incidentsOf(quiet.id)).length, 1, 'a rule the window does not match opens its incident as usual');
    t.true((await metric('alert_rule_evaluations_silenced_total')) - silencedBefore >= 3);
    const history = (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history`, { caller })).body.data as any[];
    t.true(history.length > 0);
    t.true(
      history.every((h) => h.outcome === 'silenced' && h.window_id === window.body.data.id && h.condition_met === true),
    );
    t.is(
      (await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).body.data.pending_since,
      start.toISOString(),
      'the pending clock ran through the window',
    );

    clock = new Date(start.getTime() + 10 * 60_000); // the window's end (half-open: over)
    await app.platform.evaluator.tick();
    const [incident] = await incidentsOf(rule.id);
    t.like(incident, { status: 'triggered', triggered_at: clock.toISOString(), current_value: 45 });
    t.is(
      (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history?outcome=triggered`, { caller })).body.data
        .length,
      1,
    );
  },
);

test.serial(
  "a window created over an open incident holds its remaining stages at once; ending it now resumes them, both in the incident's history",
  async (t) => {
    const caller = app.newTenant();
    await app.request('POST', '/api/v1/simulator/metrics', {
      caller,
      body: { metric: 'queue_time_seconds', value: 45, duration_seconds: 7200 },
    });
    const channel = await app.request('POST', '/notification-channels', {
      caller,
      body: { name: 'ops', type: 'chat', config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' } },
    });
    const target = [{ type: 'channel', id: channel.body.data.id }];
    const policy = await app.request('POST', '/api/v1/escalation-policies', {
      caller,
      body: {
        name: 'two stages',
        stages: [
          { stage_order: 1, delay_minutes: 0, targets: target },
          { stage_order: 2, delay_minutes: 60, targets: target },
        ],
      },
    });
    const rule = await ruleFor(caller, { evaluation_window_minutes: 0, escalation_policy_id: policy.body.data.id });
    await app.platform.evaluator.tick();
    const [incident] = (await app.request('GET', `/api/v1/incidents?rule_id=${rule.id}`, { caller })).body.data;
    t.truthy(incident, 'the incident opened before the window');
    const types = async () =>
      ((await app.request('GET', `/api/v1/incidents/${incident.id}/events`, { caller })).body.data as any[]).map(
        (e) => e.type,
      );
    await waitFor(async () => (await types()).includes('EscalationStageFired'), {
      timeoutMs: 20_000,
      message: 'stage 1 fired',
    });

    // Stage 2 is an hour away: only the window's own event can make the manager look now.
    const window = await app.request('POST', '/api/v1/maintenance-windows', {
      caller,
      body: windowBody({ matcher: { rule_ids: [rule.id] }, starts_at: minutes(-1) }),
    });
    await waitFor(async () => (await types()).includes('EscalationHeld'), {
      timeoutMs: 20_000,
      message: 'held when the window was created',
    });
    const held = (await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller })).body.data;
    t.like(held, {
      status: 'triggered',
      next_escalation_at: null,
      escalation: { held_by_window_id: window.body.data.id },
    });

    t.is((await app.request('POST', `/api/v1/maintenance-windows/${window.body.data.id}/end`, { caller })).status, 200);
    await waitFor(async () => (await types()).includes('EscalationResumed'), {
      timeoutMs: 20_000,
      message: 'resumed when the window was ended',
    });
    const resumed = (await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller })).body.data;
    t.is(resumed.escalation.held_by_window_id, null);
    t.truthy(resumed.next_escalation_at, 'stage 2 is due again');
    t.deepEqual(
      (await types()).filter((type) => type === 'EscalationStageFired').length,
      1,
      'nothing fired by the hold or the resume',
    );
  },
);
