/**
 * Instants outside what the platform supports (src/contract/api-instant.ts: 1970-01-01T00:00:00Z up to,
 * not including, 9000-01-01T00:00:00Z) are a 400 problem naming the field on every route that takes
 * an instant, in a query or a body; none reaches the zone arithmetic (a RangeError, a 500, before).
 * Table-driven over the routes, with the edges of the range answering 200.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { onCallTenant } from './support/escalation-policy-fixtures.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
let caller: Caller;
let ids: { schedule: string; policy: string; rule: string };
let scheduleBody: unknown;
let policyBody: unknown;
test.before(async () => {
  app = await startTestApp({ env: { ALERT_EVALUATION_INTERVAL_SECONDS: '86400' } });
  const tenant = await onCallTenant(app);
  caller = tenant.caller;
  const created = async (path: string, body: unknown) => {
    const answer = await app.request('POST', path, { caller, body });
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data as { id: string };
  };
  policyBody = tenant.policy;
  const policy = await created('/api/v1/escalation-policies', tenant.policy);
  const schedule = await app.request('GET', `/api/v1/schedules/${tenant.onCall.id}`, { caller });
  scheduleBody = {
    name: 'Preview',
    timezone: 'Europe/Berlin',
    layers: schedule.body.data.layers.map((l: Record<string, unknown>) => ({
      user_ids: l.user_ids,
      rotation_type: l.rotation_type,
      start_time: '2026-01-01T09:00:00',
    })),
  };
  const rule = await created('/api/v1/alert-rules', {
    name: 'Queue wait',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 2,
    severity: 'high',
    escalation_policy_id: policy.id,
  });
  ids = { schedule: tenant.onCall.id, policy: policy.id, rule: rule.id };
});
test.after.always(async () => app?.close());

const FAR_FUTURE = '9999-12-31T23:59:59Z';
const FAR_PAST = '0001-01-01T00:00:00Z';

/** [what, method, path, body, the field named]; each path and body is built once the fixtures exist. */
const CASES: [string, string, () => string, (() => unknown) | undefined, string][] = [
  [
    'escalation preview of a body, at 9999',
    'POST',
    () => `/api/v1/escalation-policies/preview?at=${FAR_FUTURE}`,
    () => policyBody,
    '/at',
  ],
  [
    'escalation preview of a saved policy, at 9999',
    'GET',
    () => `/api/v1/escalation-policies/${ids.policy}/preview?at=${FAR_FUTURE}`,
    undefined,
    '/at',
  ],
  [
    "a schedule's range in year 1",
    'GET',
    () => `/api/v1/schedules/${ids.schedule}/oncall?since=${FAR_PAST}&until=0001-03-01T00:00:00Z`,
    undefined,
    '/since',
  ],
  [
    "a schedule's range ending in 9000",
    'GET',
    () => `/api/v1/schedules/${ids.schedule}/oncall?since=8999-12-30T00:00:00Z&until=9000-01-02T00:00:00Z`,
    undefined,
    '/until',
  ],
  [
    'who is on call at the first instant refused',
    'GET',
    () => `/api/v1/schedules/${ids.schedule}/current-oncall?at=9000-01-01T00:00:00Z`,
    undefined,
    '/at',
  ],
  [
    'who is on call a second before 1970',
    'GET',
    () => `/api/v1/schedules/${ids.schedule}/current-oncall?at=1970-01-01T00:59:59%2B01:00`,
    undefined,
    '/at',
  ],
  [
    'who is on call in 9999',
    'GET',
    () => `/api/v1/schedules/${ids.schedule}/current-oncall?at=${FAR_FUTURE}`,
    undefined,
    '/at',
  ],
  [
    'a schedule preview in 9999',
    'POST',
    () => `/api/v1/schedules/preview?since=9999-12-01T00:00:00Z&until=9999-12-08T00:00:00Z`,
    () => scheduleBody,
    '/since',
  ],
  [
    'on-call analytics in 9999',
    'GET',
    () => '/api/v1/analytics/oncall?since=9999-01-01T00:00:00Z&until=9999-06-01T00:00:00Z',
    undefined,
    '/since',
  ],
  [
    'incident analytics in year 1',
    'GET',
    () => `/api/v1/analytics/incidents?since=${FAR_PAST}&until=0001-06-01T00:00:00Z&group_by=day&tz=Europe/Berlin`,
    undefined,
    '/since',
  ],
  ['incidents from year 1', 'GET', () => `/api/v1/incidents?from=${FAR_PAST}`, undefined, '/from'],
  ['an incident as of 9999', 'GET', () => `/api/v1/incidents/${randomUUID()}?as_of=${FAR_FUTURE}`, undefined, '/as_of'],
  [
    "a rule's history to 9999",
    'GET',
    () => `/api/v1/alert-rules/${ids.rule}/history?to=${FAR_FUTURE}`,
    undefined,
    '/to',
  ],
  [
    'a backtest in 9999',
    'POST',
    () => '/api/v1/alert-rules/backtest',
    () => ({ rule_id: ids.rule, since: '9999-12-01T00:00:00Z', until: FAR_FUTURE }),
    '/since',
  ],
  [
    'a maintenance window in 9999',
    'POST',
    () => '/api/v1/maintenance-windows',
    () => ({
      name: 'far',
      reason: 'far',
      matcher: { all_rules: true },
      starts_at: '9999-12-30T00:00:00Z',
      ends_at: FAR_FUTURE,
    }),
    '/starts_at',
  ],
  [
    'maintenance windows active in 9999',
    'GET',
    () => `/api/v1/maintenance-windows?active_at=${FAR_FUTURE}`,
    undefined,
    '/active_at',
  ],
  ['sync history from year 1', 'GET', () => `/api/v1/sync/history?from=${FAR_PAST}`, undefined, '/from'],
];

for (const [what, method, path, body, field] of CASES) {
  test(`far-off instants are a 400 naming the field: ${what}`, async (t) => {
    const answer = await app.request(method, path(), { caller, body: body?.() });
    t.is(answer.status, 400, `${method} ${path()}: ${answer.status} ${JSON.stringify(answer.body)}`);
    t.regex(answer.headers.get('content-type')!, /application\/problem\+json/);
    t.true(
      (answer.body.errors as { path: string }[]).some((e) => e.path === field),
      JSON.stringify(answer.body),
    );
    t.true(
      (answer.body.errors as { message: string }[]).some((e) => /1970-01-01T00:00:00Z/.test(e.message)),
      'the message says the supported range',
    );
  });
}

const longestPolicy = () => {
  const target = (policyBody as { stages: { targets: unknown[] }[] }).stages[0]!.targets;
  return {
    name: 'longest',
    repeat_interval_minutes: 10_080,
    stages: Array.from({ length: 20 }, (_, i) => ({
      stage_order: i + 1,
      delay_minutes: i === 0 ? 0 : 10_080,
      targets: target,
    })),
  };
};

test('the edges of the supported range are answered', async (t) => {
  const edges: [string, string, unknown?][] = [
    ['GET', `/api/v1/schedules/${ids.schedule}/oncall?since=1970-01-01T00:00:00Z&until=1970-01-08T00:00:00Z`],
    ['GET', `/api/v1/schedules/${ids.schedule}/oncall?since=8999-12-25T00:00:00Z&until=8999-12-31T23:59:59.999Z`],
    ['GET', `/api/v1/schedules/${ids.schedule}/current-oncall?at=8999-12-31T23:59:59Z`],
    ['POST', '/api/v1/escalation-policies/preview?at=8999-12-31T23:59:59Z', policyBody],
    // The longest span a preview reaches past its instant: 20 stages a week apart, repeated weekly, 5 cycles (about two years).
    ['POST', '/api/v1/escalation-policies/preview?at=8999-12-31T23:59:59Z&cycles=5', longestPolicy()],
    ['GET', '/api/v1/analytics/oncall?since=8999-01-01T00:00:00Z&until=8999-12-31T23:59:59Z'],
    [
      'GET',
      '/api/v1/analytics/incidents?since=1970-01-01T00:00:00Z&until=1970-12-31T00:00:00Z&group_by=week&tz=Pacific/Kiritimati',
    ],
  ];
  for (const [method, path, body] of edges) {
    const answer = await app.request(method, path, { caller, body });
    t.is(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
  }
});
