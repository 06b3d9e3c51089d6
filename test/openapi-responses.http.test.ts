/**
 * Real answers of the running platform (the test harness: random port, real signed tokens) are
 * validated against the response schemas of its own /openapi.json with ajv (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1). Response objects are closed, so an undocumented field fails too.
 */
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { randomUUID } from 'node:crypto';
import { startTestApp, type ApiResponse, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let owner: Caller;
let document: any;
// Formats (uuid, date-time, email) are documentation here: ajv-formats is not a dependency.
const ajv = new Ajv2020({ strict: true, validateFormats: false, allErrors: true });

test.before(async () => {
  app = await startTestApp();
  owner = app.newTenant();
  document = (await app.request('GET', '/openapi.json')).body;
});
test.after.always(async () => app?.close());

/** The document's components inlined, so a response schema compiles on its own. */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref?.startsWith('#/components/schemas/'))
    return resolved(document.components.schemas[ref.slice('#/components/schemas/'.length)]);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(value)]));
}

/** Calls the API and checks the answer's status and body against the document's entry for `template`. */
async function documented(
  t: any,
  method: string,
  template: string,
  path: string,
  expectedStatus: number,
  body?: unknown,
  caller = owner,
): Promise<ApiResponse> {
  const response = await app.request(method, path, { caller, body });
  t.is(response.status, expectedStatus, `${method} ${path}: ${JSON.stringify(response.body).slice(0, 500)}`);
  const entry = document.paths[template]?.[method.toLowerCase()]?.responses?.[String(response.status)];
  if (!entry) {
    t.fail(`${method} ${template} documents no ${response.status}`);
    return response;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!;
  const schema = entry.content?.[contentType]?.schema;
  if (!schema) {
    t.fail(`${method} ${template} ${response.status} documents no ${contentType}`);
    return response;
  }
  const validateAnswer = ajv.compile(resolved(schema) as object);
  t.true(
    validateAnswer(response.body),
    `${method} ${path} ${response.status}: ${ajv.errorsText(validateAnswer.errors)}`,
  );
  return response;
}

test.serial('notification channels, escalation policies and alert rules: create, list, get', async (t) => {
  const channel = await documented(t, 'POST', '/api/v1/notification-channels', '/api/v1/notification-channels', 201, {
    name: 'ops hook',
    type: 'webhook',
    config: {
      url: 'https://hooks.example/alert',
      method: 'POST',
      headers: { Authorization: 'Bearer secret-token-1234' },
    },
  });
  await documented(t, 'GET', '/api/v1/notification-channels', '/api/v1/notification-channels', 200);
  await documented(t, 'GET', '/notification-channels/{id}', `/notification-channels/${channel.body.data.id}`, 200);
  const etag = channel.headers.get('etag')!;
  await documented(
    t,
    'PUT',
    '/api/v1/notification-channels/{id}',
    `/api/v1/notification-channels/${channel.body.data.id}`,
    200,
    { name: 'ops hook 2', type: channel.body.data.type, config: channel.body.data.config },
  );
  const stale = await app.request('PUT', `/api/v1/notification-channels/${channel.body.data.id}`, {
    caller: owner,
    headers: { 'if-match': etag },
    body: { name: 'x', type: 'webhook', config: channel.body.data.config },
  });
  t.is(stale.status, 409, 'a stale If-Match');
  t.truthy(document.paths['/api/v1/notification-channels/{id}'].put.responses['409']);
  const policy = await documented(t, 'POST', '/api/v1/escalation-policies', '/api/v1/escalation-policies', 201, {
    name: 'ops',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
  });
  await documented(
    t,
    'GET',
    '/api/v1/escalation-policies/{id}',
    `/api/v1/escalation-policies/${policy.body.data.id}`,
    200,
  );
  const rule = await documented(t, 'POST', '/api/v1/alert-rules', '/api/v1/alert-rules', 201, {
    name: 'Queue wait',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy.body.data.id,
  });
  await documented(t, 'GET', '/api/v1/alert-rules', '/api/v1/alert-rules', 200);
  await documented(t, 'GET', '/api/v1/alert-rules/{id}', `/api/v1/alert-rules/${rule.body.data.id}`, 200);
  await documented(t, 'PATCH', '/api/v1/alert-rules/{id}', `/api/v1/alert-rules/${rule.body.data.id}`, 200, {
    threshold: 40,
  });
  const hourAgo = Date.now() - 3_600_000;
  await documented(t, 'POST', '/api/v1/alert-rules/backtest', '/api/v1/alert-rules/backtest', 200, {
    rule_id: rule.body.data.id,
    since: new Date(hourAgo - 3_600_000).toISOString(),
    until: new Date(hourAgo).toISOString(),
    include_readings: true,
  });

  // An incident: the simulated warehouse breaches the rule, one evaluator tick triggers it.
  await documented(t, 'POST', '/api/v1/simulator/metrics', '/api/v1/simulator/metrics', 200, {
    metric: 'queue_time_seconds',
    value: 95,
    duration_seconds: 3600,
  });
  await app.platform.evaluator.tick();
  await waitFor(
    async () =>
      (await app.request('GET', `/api/v1/incidents?rule_id=${rule.body.data.id}`, { caller: owner })).body.data.length >
      0,
    { message: 'the incident' },
  );
  await documented(
    t,
    'GET',
    '/api/v1/alert-rules/{id}/history',
    `/api/v1/alert-rules/${rule.body.data.id}/history`,
    200,
  );
  const incidents = await documented(t, 'GET', '/api/v1/incidents', '/api/v1/incidents', 200);
  const incident = incidents.body.data[0];
  await documented(t, 'GET', '/api/v1/incidents/{id}', `/api/v1/incidents/${incident.id}`, 200);
  await documented(t, 'GET', '/api/v1/incidents/{id}/events', `/api/v1/incidents/${incident.id}/events`, 200);
  await documented(
    t,
    'GET',
    '/api/v1/incidents/{id}',
    `/api/v1/incidents/${incident.id}?as_of=${encodeURIComponent(incident.triggered_at)}`,
    200,
  );
  await documented(t, 'GET', '/api/v1/escalations', '/api/v1/escalations', 200);
  await documented(
    t,
    'POST',
    '/api/v1/incidents/{id}/acknowledge',
    `/api/v1/incidents/${incident.id}/acknowledge`,
    200,
    {},
  );
  await documented(t, 'POST', '/api/v1/incidents/{id}/notes', `/api/v1/incidents/${incident.id}/notes`, 201, {
    text: 'looking',
  });
  await documented(t, 'POST', '/api/v1/incidents/{id}/resolve', `/api/v1/incidents/${incident.id}/resolve`, 200, {
    note: 'drained',
  });
  await documented(t, 'POST', '/api/v1/incidents/{id}/resolve', `/api/v1/incidents/${incident.id}/resolve`, 409, {});
  await documented(
    t,
    'DELETE',
    '/api/v1/notification-channels/{id}',
    `/api/v1/notification-channels/${channel.body.data.id}`,
    409,
  );
  await documented(t, 'DELETE', '/api/v1/alert-rules/{id}', `/api/v1/alert-rules/${rule.body.data.id}`, 200);
});

test.serial('users, roles, groups, schedules and who is on call', async (t) => {
  const user = await documented(t, 'POST', '/users', '/users', 201, {
    email: `oncall-${randomUUID()}@example.com`,
    name: 'On Call',
  });
  await documented(t, 'GET', '/users', '/users', 200);
  await documented(t, 'GET', '/api/v1/users/{id}', `/api/v1/users/${user.body.data.id}`, 200);
  await documented(t, 'GET', '/api/v1/users/{id}/permissions', `/api/v1/users/${user.body.data.id}/permissions`, 200);
  await documented(t, 'PATCH', '/users/{id}', `/users/${user.body.data.id}`, 200, { name: 'On Call 2' });
  await documented(
    t,
    'PUT',
    '/api/v1/users/{id}/permission-overrides',
    `/api/v1/users/${user.body.data.id}/permission-overrides`,
    200,
    { permissions: { 'sync:write': 'deny' } },
  );
  await documented(t, 'GET', '/api/v1/roles', '/api/v1/roles', 200);
  const role = await documented(t, 'POST', '/api/v1/roles', '/api/v1/roles', 201, {
    name: 'auditor',
    permissions: { 'audit:read': 'allow' },
  });
  await documented(t, 'GET', '/api/v1/roles/{id}', `/api/v1/roles/${role.body.data.id}`, 200);
  await documented(t, 'GET', '/api/v1/roles/{id}', '/api/v1/roles/owner', 200);
  const group = await documented(t, 'POST', '/api/v1/groups', '/api/v1/groups', 201, {
    name: 'dbas',
    permissions: { 'alerts:read': 'allow' },
  });
  await documented(
    t,
    'PUT',
    '/api/v1/groups/{id}/members/{user_id}',
    `/api/v1/groups/${group.body.data.id}/members/${user.body.data.id}`,
    200,
  );
  await documented(t, 'GET', '/api/v1/tenant/permission-defaults', '/api/v1/tenant/permission-defaults', 200);
  const schedule = await documented(t, 'POST', '/api/v1/schedules', '/api/v1/schedules', 201, {
    name: 'primary',
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: [user.body.data.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
  });
  await documented(t, 'GET', '/api/v1/schedules', '/api/v1/schedules', 200);
  await documented(
    t,
    'GET',
    '/api/v1/schedules/{id}/current-oncall',
    `/api/v1/schedules/${schedule.body.data.id}/current-oncall`,
    200,
  );
  await documented(t, 'GET', '/api/v1/schedules/{id}/oncall', `/api/v1/schedules/${schedule.body.data.id}/oncall`, 200);
  await documented(
    t,
    'POST',
    '/api/v1/schedules/{id}/overrides',
    `/api/v1/schedules/${schedule.body.data.id}/overrides`,
    201,
    {
      user_id: user.body.data.id,
      start: '2030-01-01T09:00:00',
      end: '2030-01-02T09:00:00',
      reason: 'swap',
    },
  );
  await documented(
    t,
    'POST',
    '/api/v1/schedules/preview',
    '/api/v1/schedules/preview?since=2026-01-05T00:00:00Z&until=2026-01-19T00:00:00Z',
    200,
    {
      name: 'draft',
      timezone: 'Europe/Berlin',
      layers: [{ user_ids: [user.body.data.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
      overrides: [
        { user_id: user.body.data.id, start: '2026-01-10T09:00:00', end: '2026-01-11T09:00:00', reason: null },
      ],
    },
  );
});

test.serial('warehouse health, data sync and stream tickets', async (t) => {
  await documented(t, 'GET', '/warehouse/cluster', '/warehouse/cluster', 200);
  await documented(t, 'GET', '/api/v1/warehouse/storage', '/api/v1/warehouse/storage', 200);
  for (const path of [
    '/api/v1/warehouse/queries/slow',
    '/api/v1/warehouse/queries/spill',
    '/api/v1/warehouse/tables/vacuum',
    '/api/v1/warehouse/tables/alerts',
  ]) {
    await documented(t, 'GET', path, path, 200);
  }
  await documented(t, 'GET', '/api/v1/sync/status', '/api/v1/sync/status', 200);
  await documented(t, 'GET', '/api/v1/sync/jobs', '/api/v1/sync/jobs', 200);
  await documented(t, 'GET', '/api/v1/sync/history', '/api/v1/sync/history', 200);
  await documented(t, 'POST', '/api/v1/stream-tickets', '/api/v1/stream-tickets', 201, {
    path: '/api/v1/incidents/stream',
  });
});

test.serial('the assistant: its tool listing, its health, and /ask without a model key (503)', async (t) => {
  const listing = await documented(t, 'GET', '/api/v1/ask/tools', '/api/v1/ask/tools', 200);
  t.is(listing.body.data.count, 26);
  await documented(t, 'GET', '/api/v1/ask/health', '/api/v1/ask/health', 200);
  await documented(t, 'POST', '/ask', '/ask', 503, { prompt: 'why are my queries slow?' });
  await documented(t, 'POST', '/api/v1/ask', '/api/v1/ask', 400, { prompt: '' });
});

test.serial(
  'the other writes: rotation, defaults, membership, invitations, deletions, simulator and sync controls',
  async (t) => {
    const hook = await documented(t, 'POST', '/notification-channels', '/notification-channels', 201, {
      name: 'signed hook',
      type: 'webhook',
      config: { url: 'https://hooks.example/signed', method: 'PUT' },
    });
    await documented(
      t,
      'POST',
      '/api/v1/notification-channels/{id}/rotate-secret',
      `/api/v1/notification-channels/${hook.body.data.id}/rotate-secret`,
      200,
      {},
    );
    // A test send that fails downstream (the metadata address is refused before any request) answers its error as {kind, message}.
    const metadata = await documented(t, 'POST', '/notification-channels', '/notification-channels', 201, {
      name: 'metadata hook',
      type: 'webhook',
      config: { url: 'http://169.254.169.254/', method: 'POST' },
    });
    const tested = await documented(
      t,
      'POST',
      '/api/v1/notification-channels/{id}/test',
      `/api/v1/notification-channels/${metadata.body.data.id}/test`,
      200,
      {},
    );
    t.is(tested.body.error?.kind, 'refused_address');
    t.false(tested.body.success, 'top-level success is the downstream outcome');
    await documented(
      t,
      'GET',
      '/notification-channels/{id}/events',
      `/notification-channels/${metadata.body.data.id}/events`,
      200,
    );
    await documented(t, 'DELETE', '/notification-channels/{id}', `/notification-channels/${hook.body.data.id}`, 200);
    await documented(t, 'PUT', '/api/v1/tenant/permission-defaults', '/api/v1/tenant/permission-defaults', 200, {
      permissions: { 'alerts:read': 'allow' },
    });
    const user = await documented(t, 'POST', '/api/v1/users', '/api/v1/users', 201, {
      email: `member-${randomUUID()}@example.com`,
      name: 'Member',
    });
    await documented(t, 'POST', '/api/v1/users/{id}/invite', `/api/v1/users/${user.body.data.id}/invite`, 200, {});
    const group = await documented(t, 'POST', '/api/v1/groups', '/api/v1/groups', 201, {
      name: 'night shift',
      permissions: {},
    });
    await documented(
      t,
      'PUT',
      '/api/v1/groups/{id}/members/{user_id}',
      `/api/v1/groups/${group.body.data.id}/members/${user.body.data.id}`,
      200,
    );
    await documented(t, 'DELETE', '/api/v1/groups/{id}', `/api/v1/groups/${group.body.data.id}`, 409);
    await documented(
      t,
      'DELETE',
      '/api/v1/groups/{id}/members/{user_id}',
      `/api/v1/groups/${group.body.data.id}/members/${user.body.data.id}`,
      200,
    );
    await documented(t, 'DELETE', '/api/v1/groups/{id}', `/api/v1/groups/${group.body.data.id}`, 200);
    await documented(
      t,
      'DELETE',
      '/api/v1/users/{id}/permission-overrides',
      `/api/v1/users/${user.body.data.id}/permission-overrides`,
      200,
    );
    await documented(t, 'DELETE', '/users/{id}', `/users/${user.body.data.id}`, 200);
    await documented(t, 'POST', '/api/v1/sync/jobs/{job_id}/pause', '/api/v1/sync/jobs/wlm_queue_stats/pause', 200);
    await documented(t, 'POST', '/api/v1/sync/jobs/{job_id}/pause', '/api/v1/sync/jobs/wlm_queue_stats/pause', 409);
    await documented(t, 'POST', '/api/v1/sync/jobs/{job_id}/resume', '/api/v1/sync/jobs/wlm_queue_stats/resume', 200);
    await documented(t, 'POST', '/api/v1/simulator/cluster', '/api/v1/simulator/cluster', 200, { paused: true });
    await documented(t, 'GET', '/warehouse/cluster', '/warehouse/cluster', 503);
    await documented(t, 'POST', '/api/v1/simulator/cluster', '/api/v1/simulator/cluster', 200, { paused: false });
  },
);

test.serial('problems: 400 with its errors, 404, 403, 401', async (t) => {
  const invalid = await documented(t, 'POST', '/api/v1/notification-channels', '/api/v1/notification-channels', 400, {
    name: '',
    type: 'fax',
    config: {},
  });
  t.true(invalid.body.errors.length > 0);
  await documented(t, 'GET', '/api/v1/incidents', '/api/v1/incidents?state=open', 400);
  await documented(t, 'GET', '/api/v1/alert-rules/{id}', `/api/v1/alert-rules/${randomUUID()}`, 404);
  await documented(t, 'GET', '/users/{id}', `/users/${randomUUID()}`, 404);
  const forbidden = await documented(t, 'GET', '/api/v1/alert-rules', '/api/v1/alert-rules', 403, undefined, {
    ...app.newTenant(),
    roles: [],
  });
  t.regex(forbidden.body.detail, /alerts:read/);
  const unauthenticated = await fetch(`${app.url}/api/v1/alert-rules`);
  t.is(unauthenticated.status, 401);
  t.truthy(document.paths['/api/v1/alert-rules'].get.responses['401']);
});

test.serial('a response schema does refuse an answer that does not match it', (t) => {
  const schema = document.paths['/api/v1/alert-rules/{id}'].get.responses['200'].content['application/json'].schema;
  const validateRule = ajv.compile(resolved(schema) as object);
  t.false(validateRule({ success: true, data: { id: 'x' } }), 'fields missing');
  t.false(validateRule({ success: true, data: {}, extra: 1 }), 'an undocumented member');
});

test('the reference page and its files are served without a token, from the local package', async (t) => {
  const page = await fetch(`${app.url}/docs`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  t.true(assets.includes('/docs/swagger-ui-bundle.js') && assets.includes('/docs/swagger-ui.css'), assets.join(', '));
  t.false(
    assets.some((asset) => /^(https?:)?\/\//.test(asset)),
    'nothing from another host',
  );
  for (const asset of assets) {
    const response = await fetch(`${app.url}${asset}`);
    t.is(response.status, 200, asset);
    t.true((await response.arrayBuffer()).byteLength > 0, asset);
  }
  t.regex((await fetch(`${app.url}/docs/swagger-ui-bundle.js`)).headers.get('content-type') ?? '', /javascript/);
  t.regex(await (await fetch(`${app.url}/docs/initializer.js`)).text(), /url: '\/openapi\.json'/);
  t.is((await fetch(`${app.url}/docs/package.json`)).status, 404, "only the page's files");
  t.is((await fetch(`${app.url}/docs/..%2Fpackage.json`)).status, 404);
  t.is((await fetch(`${app.url}/openapi.json`)).status, 200, 'the document needs no token either');
});
