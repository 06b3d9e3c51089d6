/**
 * No input may crash the process or produce a 500: every registered route, with malformed ids and
 * malformed or hostile bodies and queries, must answer 4xx (or 2xx where the input happens to be
 * acceptable) and the platform must still be healthy afterwards. The routes come from the running
 * platform, so routes added later are covered too.
 */
import test from 'ava';
import { API_PREFIX } from '../src/http/app.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { ALERT_EVALUATION_INTERVAL_SECONDS: '3600' } });
  // The walk reaches the sync routes: open the embedded PostgreSQL first, since its start blocks the
  // event loop for seconds (mid-walk, that stall let a kept-alive connection close under a request).
  await app.platform.syncStore.ping();
});
test.after.always(async () => app?.close());

const PUBLIC = new Set(['/health', '/metrics', '/.well-known/jwks.json', '/oauth/token']);
const BAD_IDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(2000),
  '%E0%A4%A',
  "'; DROP TABLE events; --",
  '..%2F..%2Fetc',
];

/** A small deterministic generator of hostile JSON values. */
function* hostileValues(): Generator<unknown> {
  yield null;
  yield [];
  yield 'text';
  yield 1e308;
  yield -0;
  yield {};
  yield { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } };
  yield { name: null, type: 123, config: 'x', stages: {}, permissions: [], metric: {}, threshold: 'NaN' };
  yield { name: 'x'.repeat(100_000) };
  yield { email: 'a@b.co'.repeat(50), name: ['x'], role_id: { $ne: null }, group_ids: 'all' };
  yield { stages: [{ stage_order: 'one', delay_minutes: -1, targets: [{ type: 'user', id: 'x', channels: 'sms' }] }] };
  yield { paused: 'yes', metric: 'queue_time_seconds', value: '45', duration_seconds: 1e20 };
  yield { text: { nested: true }, note: 42, permissions: { 'iam:read': 'maybe', 'x:y': 'allow' } };
  let depth: unknown = 'deep';
  for (let i = 0; i < 500; i++) depth = { a: depth };
  yield depth;
}

const RAW_BODIES = ['{', '{"a":', 'null', '"string"', '[1,2', '\u0000', '{"a":1}{"b":2}'];

function routes() {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const router of app.platform.routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        const key = `${method} ${String(layer.path)}`;
        if (seen.has(key) || PUBLIC.has(String(layer.path).replace(API_PREFIX, ''))) continue;
        seen.add(key);
        out.push({ method, path: String(layer.path) });
      }
    }
  }
  return out;
}

/** Real resources of the caller's tenant, by the path segment before an id parameter. */
async function fixtures(caller: ReturnType<TestApp['newTenant']>): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown) => {
    const response = await app.request('POST', path, { caller, body });
    if (response.status !== 201)
      throw new Error(`fixture ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data.id as string;
  };
  const channel = await post('/notification-channels', {
    name: 'c',
    type: 'email',
    config: { recipients: ['a@example.com'], subject_template: 's' },
  });
  const role = await post('/api/v1/roles', { name: 'r', permissions: { 'channels:read': 'allow' } });
  const group = await post('/api/v1/groups', { name: 'g', permissions: {} });
  const user = await post('/users', { email: 'u@example.com', name: 'u', role_id: 'viewer', group_ids: [group] });
  const policy = await post('/api/v1/escalation-policies', {
    name: 'p',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel }] }],
  });
  const rule = await post('/api/v1/alert-rules', {
    name: 'r',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 1e9,
    evaluation_window_minutes: 5,
    severity: 'low',
    escalation_policy_id: policy,
    is_enabled: false,
  });
  const schedule = await post('/schedules', {
    name: 's',
    timezone: 'UTC',
    layers: [{ user_ids: [user], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
    overrides: [{ user_id: user, start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' }],
  });
  const override = (await app.request('GET', `/schedules/${schedule}`, { caller })).body.data.overrides[0].id as string;
  return {
    'notification-channels': channel,
    roles: role,
    groups: group,
    users: user,
    members: user,
    'escalation-policies': policy,
    'alert-rules': rule,
    incidents: '00000000-0000-4000-8000-000000000000',
    schedules: schedule,
    overrides: override,
  };
}

const withRealIds = (path: string, ids: Record<string, string>) =>
  path.replace(/\/([a-z-]+)\/:[a-z_]+/g, (match, segment: string) =>
    ids[segment] ? `/${segment}/${ids[segment]}` : match,
  );

test('every route answers malformed ids, bodies and queries without a 500, and the platform stays healthy', async (t) => {
  const caller = app.newTenant();
  const ids = await fixtures(caller);
  const all = routes();
  t.true(all.length > 40, `found ${all.length} routes`);
  const failures: string[] = [];
  let validationAnswers = 0;
  const check = async (method: string, path: string, body?: unknown, raw = false) => {
    const response = await app
      .request(method, path, { caller, body: raw ? String(body) : body })
      .catch((error: Error & { cause?: unknown }) => {
        throw new Error(`${method} ${path}: ${error.message} (${String(error.cause)})`);
      });
    if (response.status === 400 || response.status === 413) validationAnswers++;
    if (response.status >= 500)
      failures.push(`${method} ${path} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
  };
  for (const { method, path } of all) {
    if (path.endsWith('/stream')) continue; // long-lived; covered by its own tests
    const real = withRealIds(path, ids);
    const targets = [
      ...BAD_IDS.map((id) => path.replace(/:[a-z_]+/g, encodeURIComponent(id).replace(/%25/g, '%'))),
      ...(real.includes(':') ? [] : [real]),
    ];
    for (const concrete of new Set(targets)) {
      await check(method, `${concrete}?limit=abc&cursor=%%%&from=yesterday&as_of=never&status=maybe`);
      if (['POST', 'PUT', 'PATCH'].includes(method)) {
        for (const value of hostileValues()) await check(method, concrete, value);
        for (const raw of RAW_BODIES) await check(method, concrete, raw, true);
      }
    }
  }
  t.deepEqual(failures, []);
  t.true(validationAnswers > 200, `hostile input reached validation ${validationAnswers} times`);
  const health = await app.request('GET', '/health');
  t.is(health.status, 200);
});
