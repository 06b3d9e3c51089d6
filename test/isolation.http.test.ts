/**
 * Tenant isolation, for every route the platform registers: a caller of another tenant (owner in
 * its own tenant) aims each route at resources of tenant A. Every route with ids must answer 403 or
 * 404; every route answers without any of A's data; A's data is unchanged afterwards. The routes
 * come from the running platform's routers, so a route added later is walked too, and a route
 * whose path parameter this table does not know makes the suite fail until it is added here.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { API_PREFIX } from '../src/http/app.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
test.before(async () => {
  // Incidents come only from the evaluator: tick every second so the fixtures get theirs quickly.
  app = await startTestApp({ env: { ALERT_EVALUATION_INTERVAL_SECONDS: '1' } });
  // The fixtures run a sync job: open the embedded PostgreSQL first (its start blocks for seconds).
  await app.platform.syncStore.ping();
});
test.after.always(async () => app?.close());

/** Public routes and routes that are explicitly not tenant-scoped (none so far). */
const NOT_TENANT_SCOPED = new Set(['/health', '/metrics', '/.well-known/jwks.json', '/oauth/token']);

interface Fixture {
  caller: Caller;
  channel: string;
  role: string;
  group: string;
  user: string;
  policy: string;
  rule: string;
  incident: string;
  schedule: string;
  override: string;
  /** A sync run's log id, and a job id (job ids are names, the same in every tenant). */
  syncLog: string;
  syncJob: string;
  /** A maintenance window on the tenant's rule. */
  window: string;
  /** A heartbeat monitor paging the tenant's policy. */
  heartbeat: string;
  /** An integration paging the tenant's policy. */
  integration: string;
  /** Strings that only this tenant's data contains. */
  secrets: string[];
}

/** Which fixture a path parameter names, by the path segment before it. */
const RESOURCE_BY_SEGMENT: Record<string, keyof Omit<Fixture, 'caller' | 'secrets'>> = {
  'notification-channels': 'channel',
  'escalation-policies': 'policy',
  'alert-rules': 'rule',
  incidents: 'incident',
  users: 'user',
  members: 'user',
  roles: 'role',
  groups: 'group',
  schedules: 'schedule',
  overrides: 'override',
  history: 'syncLog',
  jobs: 'syncJob',
  'maintenance-windows': 'window',
  heartbeats: 'heartbeat',
  integrations: 'integration',
};

/** Bodies that are valid in the caller's own tenant, so a route cannot hide behind a 400. */
const BODIES: Record<string, (own: Fixture) => unknown> = {
  'PUT /notification-channels/:id': () => ({
    name: 'x',
    type: 'email',
    config: { recipients: ['x@example.com'], subject_template: 's' },
  }),
  'PUT /escalation-policies/:id': (own) => ({
    name: 'x',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: own.channel }] }],
    repeat_interval_minutes: 0,
  }),
  'PUT /users/:id': () => ({
    email: `x-${randomUUID().slice(0, 8)}@example.com`,
    name: 'x',
    role_id: 'viewer',
    group_ids: [],
  }),
  'PATCH /users/:id': () => ({ name: 'x' }),
  'PUT /users/:id/permission-overrides': () => ({ permissions: {} }),
  'PUT /roles/:id': () => ({ name: 'x', permissions: {} }),
  'PUT /groups/:id': () => ({ name: 'x', permissions: {} }),
  'PUT /alert-rules/:id': (own) => ({ ...ruleBody('x'), escalation_policy_id: own.policy }),
  'PATCH /alert-rules/:id': () => ({ is_enabled: false }),
  'POST /incidents/:id/notes': () => ({ text: 'x' }),
  'PUT /heartbeats/:id': (own) => ({
    name: `x-${randomUUID().slice(0, 8)}`,
    interval_seconds: 3600,
    escalation_policy_id: own.policy,
  }),
  'PUT /integrations/:id': (own) => ({
    name: `x-${randomUUID().slice(0, 8)}`,
    kind: 'events_v2',
    escalation_policy_id: own.policy,
  }),
  'PUT /maintenance-windows/:id': () => ({
    name: 'x',
    reason: 'x',
    matcher: { all_rules: true },
    starts_at: '2030-01-01T00:00:00Z',
    ends_at: '2030-01-01T01:00:00Z',
  }),
  'PUT /schedules/:id': (own) => ({
    name: 'x',
    timezone: 'UTC',
    layers: [{ user_ids: [own.user], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
  }),
  'POST /schedules/:id/overrides': (own) => ({
    user_id: own.user,
    start: '2026-01-01T00:00:00Z',
    end: '2026-01-02T00:00:00Z',
  }),
};

const ruleBody = (name: string) => ({
  name,
  metric: 'queue_time_seconds',
  condition: 'gt',
  threshold: 30,
  evaluation_window_minutes: 0,
  severity: 'high',
});

async function createFixture(label: string): Promise<Fixture> {
  const caller = app.newTenant();
  const secret = `${label}-${randomUUID()}`;
  const post = async (path: string, body: unknown) => {
    const response = await app.request('POST', path, { caller, body });
    if (response.status !== 201)
      throw new Error(`fixture ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data.id as string;
  };
  const channel = await post('/notification-channels', {
    name: `${secret} channel`,
    type: 'email',
    config: { recipients: [`${label}@example.com`], subject_template: secret },
  });
  const role = await post('/api/v1/roles', { name: `${secret} role`, permissions: { 'channels:read': 'allow' } });
  const group = await post('/api/v1/groups', { name: `${secret} group`, permissions: { 'iam:read': 'allow' } });
  const email = `${secret}@example.com`;
  const user = await post('/users', { email, name: `${secret} user`, role_id: role, group_ids: [group] });
  const policy = await post('/api/v1/escalation-policies', {
    name: `${secret} policy`,
    stages: [
      {
        stage_order: 1,
        delay_minutes: 0,
        targets: [
          { type: 'channel', id: channel },
          { type: 'user', id: user, channels: ['email'] },
        ],
      },
    ],
  });
  await app.request('PUT', `/api/v1/users/${user}/permission-overrides`, {
    caller,
    body: { permissions: { 'sync:read': 'allow' } },
  });
  await app.request('PUT', '/api/v1/tenant/permission-defaults', {
    caller,
    body: { permissions: { 'warehouse:read': 'allow' } },
  });
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 99, duration_seconds: 3600 },
  });
  const rule = await post('/api/v1/alert-rules', { ...ruleBody(`${secret} rule`), escalation_policy_id: policy });
  const schedule = await post('/schedules', {
    name: `${secret} schedule`,
    timezone: 'UTC',
    layers: [{ user_ids: [user], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
    overrides: [
      { user_id: user, start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z', reason: `${secret} override` },
    ],
  });
  const override = (await app.request('GET', `/schedules/${schedule}`, { caller })).body.data.overrides[0].id as string;
  const window = await post('/api/v1/maintenance-windows', {
    name: `${secret} window`,
    reason: `${secret} reason`,
    matcher: { rule_ids: [rule] },
    starts_at: '2030-01-01T00:00:00Z',
    ends_at: '2030-01-01T01:00:00Z',
  });
  const heartbeat = await post('/api/v1/heartbeats', {
    name: `${secret} heartbeat`,
    interval_seconds: 3600,
    escalation_policy_id: policy,
  });
  const integration = await post('/api/v1/integrations', {
    name: `${secret} integration`,
    kind: 'events_v2',
    escalation_policy_id: policy,
  });
  let incident = '';
  await waitFor(
    async () => {
      incident = (await app.request('GET', `/api/v1/incidents?rule_id=${rule}`, { caller })).body.data?.[0]?.id ?? '';
      return incident !== '';
    },
    { timeoutMs: 10_000, message: `the ${label} fixture's incident` },
  );
  await app.request('POST', '/api/v1/sync/trigger', { caller, body: { job_id: 'wlm_queue_stats' } });
  let syncLog = '';
  await waitFor(
    async () => {
      syncLog = (await app.request('GET', '/api/v1/sync/history', { caller })).body.data?.[0]?.log_id ?? '';
      return syncLog !== '';
    },
    { timeoutMs: 30_000, message: `the ${label} fixture's sync run` },
  );
  return {
    caller,
    channel,
    role,
    group,
    user,
    policy,
    rule,
    incident,
    schedule,
    override,
    syncLog,
    syncJob: 'wlm_queue_stats',
    window,
    heartbeat,
    integration,
    secrets: [
      heartbeat,
      integration,
      secret,
      email,
      channel,
      role,
      group,
      user,
      policy,
      rule,
      incident,
      schedule,
      override,
      syncLog,
      window,
      caller.tenantId,
    ],
  };
}

interface RouteVariant {
  method: string;
  pattern: string;
  path: string;
}

/** Every registered method and path; each path parameter is A's id once with the others the caller's own. */
function routeVariants(victim: Fixture, own: Fixture): RouteVariant[] {
  const variants = new Map<string, RouteVariant>();
  for (const router of app.platform.routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string')
        throw new Error(`a route with a RegExp path (${String(layer.path)}) cannot be walked; give it a string path`);
      if (NOT_TENANT_SCOPED.has(layer.path)) continue;
      const pattern = layer.path;
      const segments = pattern.split('/');
      const params = segments.flatMap((segment, i) => (segment.startsWith(':') ? [i] : []));
      const idAt = (i: number, from: Fixture) => {
        const resource = RESOURCE_BY_SEGMENT[segments[i - 1]!];
        if (!resource)
          throw new Error(
            `${pattern}: no fixture for the parameter after "${segments[i - 1]}"; add it to RESOURCE_BY_SEGMENT`,
          );
        return from[resource];
      };
      const choices = params.length === 0 ? [-1] : params;
      for (const victimParam of choices) {
        const path = segments
          .map((segment, i) =>
            params.includes(i) ? idAt(i, i === victimParam || params.length === 1 ? victim : own) : segment,
          )
          .join('/');
        for (const method of layer.methods.filter((m) => m !== 'HEAD'))
          variants.set(`${method} ${path}`, { method, pattern, path });
      }
    }
  }
  return [...variants.values()];
}

/** The longest an event stream is read while waiting for the caller's own incident. */
const SSE_READ_DEADLINE_MS = 3_000;

/**
 * One request as the intruder. Every request asks for a replay from the start of the log
 * (Last-Event-ID: 0), which only event streams heed. A stream never ends: it is read until the
 * intruder's own incident shows up (the replay has passed the victim's events, which are older)
 * or a deadline passes.
 */
async function probe(
  method: string,
  path: string,
  own: Fixture,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${app.token(own.caller)}`,
      'last-event-id': '0',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: controller.signal,
  });
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return { status: response.status, text: await response.text() };
  const deadline = setTimeout(() => controller.abort(), SSE_READ_DEADLINE_MS);
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes(own.incident)) break;
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return { status: response.status, text };
}

async function snapshot(fixture: Fixture) {
  const paths = [
    '/users',
    `/users/${fixture.user}`,
    `/api/v1/users/${fixture.user}/permission-overrides`,
    `/api/v1/users/${fixture.user}/permissions`,
    '/api/v1/roles',
    `/api/v1/roles/${fixture.role}`,
    '/api/v1/groups',
    `/api/v1/groups/${fixture.group}`,
    '/notification-channels',
    `/notification-channels/${fixture.channel}`,
    `/api/v1/escalation-policies/${fixture.policy}`,
    '/api/v1/tenant/permission-defaults',
    `/api/v1/alert-rules/${fixture.rule}`,
    `/api/v1/incidents/${fixture.incident}`,
    `/api/v1/incidents/${fixture.incident}/events`,
    `/api/v1/maintenance-windows/${fixture.window}`,
    `/api/v1/maintenance-windows/${fixture.window}/events`,
  ];
  return Promise.all(
    paths.map(async (path) => [path, (await app.request('GET', path, { caller: fixture.caller })).body] as const),
  );
}

test('another tenant gets 403/404 and none of the data on every route, and changes nothing', async (t) => {
  const victim = await createFixture('alpha');
  const intruder = await createFixture('omega');
  const before = await snapshot(victim);
  const variants = routeVariants(victim, intruder);
  t.true(variants.length >= 30, `walked ${variants.length} route variants`);

  for (const { method, pattern, path } of variants) {
    const key = `${method} ${pattern.startsWith(API_PREFIX) ? pattern.slice(API_PREFIX.length) : pattern}`;
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? (BODIES[key]?.(intruder) ?? {}) : undefined;
    const response = await probe(method, path, intruder, body);
    const { text } = response;
    const leaked = victim.secrets.filter((secret) => text.includes(secret));
    t.deepEqual(leaked, [], `${method} ${path} leaks data of the other tenant`);
    if (victim.secrets.some((secret) => path.includes(secret))) {
      t.true(
        [403, 404].includes(response.status),
        `${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`,
      );
    } else {
      t.true(response.status < 500, `${method} ${path} answered ${response.status}`);
    }
  }
  t.deepEqual(await snapshot(victim), before, "the other tenant's data is unchanged");
});

test.serial('the walk fails loudly for a path parameter it does not know', (t) => {
  const victim = {
    caller: app.newTenant(),
    channel: 'c',
    role: 'r',
    group: 'g',
    user: 'u',
    policy: 'p',
    rule: 'a',
    incident: 'i',
    schedule: 's',
    override: 'o',
    syncLog: 'l',
    syncJob: 'j',
    window: 'w',
    heartbeat: 'h',
    integration: 'n',
    secrets: [],
  };
  const router = app.platform.routers[0]!;
  const layer = { path: '/api/v1/gadgets/:id', methods: ['GET'] } as unknown as (typeof router.stack)[number];
  router.stack.push(layer);
  try {
    t.throws(() => routeVariants(victim, victim), { message: /gadgets.*add it to RESOURCE_BY_SEGMENT/ });
  } finally {
    router.stack.pop();
  }
});
