/**
 * The receivers keyed in their address on the real platform (docs/integrations.md): Alertmanager's
 * webhook (one incident per fingerprint, or per group key; firing pages once, resolved resolves;
 * labels and annotations on the incident) and generic JSON (the integration's JSON Pointers and
 * action map), each only for its own kind; bad payloads, content types and configurations are
 * 4xx problem+json that change nothing; every key that routes nowhere is the one 404; the per-key
 * rate is the one the Events API v2 address counts.
 */
import test from 'ava';
import { incidentsOf, pagesTo, pagingIntegration, pagingPolicy } from './support/integration-fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const PER_MINUTE = 40;
let app: TestApp;
let receiver: HttpReceiver;

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({
    env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: String(PER_MINUTE) },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

const post = (path: string, body: unknown, contentType = 'application/json') =>
  app.request('POST', path, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': contentType },
  });

const amAlert = (fingerprint: string, status: 'firing' | 'resolved', severity = 'critical') => ({
  status,
  labels: { alertname: `Backlog ${fingerprint}`, cluster: 'analytics', severity },
  annotations: { summary: `Queue backlog on ${fingerprint}`, runbook_url: 'https://runbooks.example/q' },
  startsAt: '2026-11-28T10:00:00Z',
  endsAt: status === 'resolved' ? '2026-11-28T10:05:00Z' : '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus.example:9090/graph',
  fingerprint,
});
const amPayload = (alerts: unknown[], status = 'firing', groupKey = '{}:{cluster="analytics"}') => ({
  receiver: 'warehouse-watch',
  status,
  alerts,
  groupLabels: { cluster: 'analytics' },
  commonLabels: { cluster: 'analytics', severity: 'critical' },
  commonAnnotations: { summary: 'Analytics cluster alerts' },
  externalURL: 'http://alertmanager.example:9093',
  version: '4',
  groupKey,
  truncatedAlerts: 0,
});

test('Alertmanager per fingerprint: each alert opens an incident that pages once, keeps its labels, resolves when resolved', async (t) => {
  const caller = app.newTenant();
  const integration = await pagingIntegration(app, receiver, caller, 'am-fp', { kind: 'alertmanager' });
  t.deepEqual(integration.config, { incident_per: 'fingerprint' });
  const address = new URL(integration.events_url).pathname;
  t.is(address, `/integrations/alertmanager/${integration.routing_key}`);

  const opened = await post(address, amPayload([amAlert('aa01', 'firing'), amAlert('bb02', 'firing', 'warning')]));
  t.is(opened.status, 202, JSON.stringify(opened.body));
  t.deepEqual(
    opened.body.alerts.map((alert: any) => [alert.dedup_key, alert.action, alert.outcome]),
    [
      ['aa01', 'trigger', 'opened'],
      ['bb02', 'trigger', 'opened'],
    ],
  );
  const incidents = await incidentsOf(app, caller, integration.id);
  t.is(incidents.length, 2);
  const first = incidents.find((incident) => incident.dedup_key === 'aa01');
  t.like(first, { status: 'triggered', title: 'Queue backlog on aa01', severity: 'critical', alert_count: 1 });
  t.deepEqual(first.sender.labels, { alertname: 'Backlog aa01', cluster: 'analytics', severity: 'critical' });
  t.like(first.sender.custom_details, {
    annotations: { summary: 'Queue backlog on aa01', runbook_url: 'https://runbooks.example/q' },
  });
  t.is(incidents.find((incident) => incident.dedup_key === 'bb02').severity, 'medium');
  await waitFor(() => pagesTo(receiver, 'am-fp').length === 2, { timeoutMs: 20_000, message: 'two pages' });

  // Alertmanager repeats the group: counted, nobody paged again.
  const repeated = await post(address, amPayload([amAlert('aa01', 'firing'), amAlert('bb02', 'firing')]));
  t.deepEqual(
    repeated.body.alerts.map((alert: any) => alert.outcome),
    ['repeated', 'repeated'],
  );
  const resolved = await post(address, amPayload([amAlert('aa01', 'resolved')], 'resolved'));
  t.is(resolved.body.alerts[0].outcome, 'resolved');
  const after = await incidentsOf(app, caller, integration.id);
  t.like(
    after.find((incident) => incident.dedup_key === 'aa01'),
    {
      status: 'resolved',
      alert_count: 2,
      resolved_by: `integration:${integration.id}`,
    },
  );
  t.is(after.find((incident) => incident.dedup_key === 'bb02').status, 'triggered');
  t.is(pagesTo(receiver, 'am-fp').length, 2, 'one page per incident');
});

test('Alertmanager per group key: the group is one incident, opened while firing and resolved with the group', async (t) => {
  const caller = app.newTenant();
  const integration = await pagingIntegration(app, receiver, caller, 'am-group', {
    kind: 'alertmanager',
    config: { incident_per: 'group_key' },
  });
  const address = `/integrations/alertmanager/${integration.routing_key}`;
  t.is((await post(address, amPayload([amAlert('aa01', 'firing'), amAlert('bb02', 'firing')]))).status, 202);
  t.is((await post(address, amPayload([amAlert('aa01', 'resolved'), amAlert('bb02', 'firing')]))).status, 202);
  let incidents = await incidentsOf(app, caller, integration.id);
  t.is(incidents.length, 1);
  t.like(incidents[0], {
    dedup_key: '{}:{cluster="analytics"}',
    title: 'Analytics cluster alerts',
    status: 'triggered',
    alert_count: 2,
  });
  t.deepEqual(incidents[0].sender.labels, { cluster: 'analytics', severity: 'critical' });
  await post(address, amPayload([amAlert('aa01', 'resolved'), amAlert('bb02', 'resolved')], 'resolved'));
  incidents = await incidentsOf(app, caller, integration.id);
  t.is(incidents[0].status, 'resolved');
  await waitFor(() => pagesTo(receiver, 'am-group').length === 1, { timeoutMs: 20_000, message: 'one page' });
});

test("generic JSON: the pointers and the action map decide; the caller's JSON is kept", async (t) => {
  const caller = app.newTenant();
  const integration = await pagingIntegration(app, receiver, caller, 'generic', {
    kind: 'generic',
    severity_map: { P1: 'critical', P3: 'medium' },
    config: {
      dedup_key: '/check/id',
      title: '/check/message',
      severity: '/check/priority',
      action: '/state',
      action_map: { FAILING: 'trigger', ACK: 'acknowledge', PASSING: 'resolve' },
    },
  });
  const address = new URL(integration.events_url).pathname;
  t.is(address, `/integrations/generic/${integration.routing_key}`);
  const event = (state: string, extra: Record<string, unknown> = {}) => ({
    state,
    check: { id: 'dbt-orders-freshness', message: 'orders is 3 h stale', priority: 'P1', ...extra },
    run: { url: 'https://dbt.example/run/9' },
  });
  const opened = await post(address, event('FAILING'));
  t.is(opened.status, 202, JSON.stringify(opened.body));
  t.like(opened.body.alerts[0], { dedup_key: 'dbt-orders-freshness', action: 'trigger', outcome: 'opened' });
  let [incident] = await incidentsOf(app, caller, integration.id);
  t.like(incident, { title: 'orders is 3 h stale', severity: 'critical', status: 'triggered' });
  t.deepEqual(incident.sender.custom_details, event('FAILING'));

  t.is((await post(address, event('ACK'))).body.alerts[0].outcome, 'acknowledged');
  [incident] = await incidentsOf(app, caller, integration.id);
  t.is(incident.acknowledged_by, `integration:${integration.id}`);
  t.is((await post(address, event('PASSING'))).body.alerts[0].outcome, 'resolved');
  t.is((await incidentsOf(app, caller, integration.id))[0].status, 'resolved');
  await waitFor(() => pagesTo(receiver, 'generic').length === 1, { timeoutMs: 20_000, message: 'one page' });
});

test('bad input is a 4xx problem+json that changes nothing', async (t) => {
  const caller = app.newTenant();
  const am = await pagingIntegration(app, receiver, caller, 'bad-am', { kind: 'alertmanager' });
  const generic = await pagingIntegration(app, receiver, caller, 'bad-generic', {
    kind: 'generic',
    config: { dedup_key: '/id', title: '/title', action: '/do' },
  });
  const amAddress = `/integrations/alertmanager/${am.routing_key}`;
  const genericAddress = `/integrations/generic/${generic.routing_key}`;
  const cases: [string, string, unknown, string, number, string[]][] = [
    [
      'a second alert is bad: the first is not taken either',
      amAddress,
      amPayload([amAlert('ok1', 'firing'), { ...amAlert('x', 'firing'), status: 'odd' }]),
      'application/json',
      400,
      ['/alerts/1/status'],
    ],
    [
      'version 3',
      amAddress,
      { ...amPayload([amAlert('ok1', 'firing')]), version: '3' },
      'application/json',
      400,
      ['/version'],
    ],
    ['not JSON', amAddress, '{"version":', 'application/json', 400, ['']],
    ['an array for Alertmanager', amAddress, [1], 'application/json', 400, ['']],
    ['text/plain', amAddress, amPayload([amAlert('ok1', 'firing')]), 'text/plain', 415, []],
    ['no dedup key', genericAddress, { title: 't', do: 'trigger' }, 'application/json', 400, ['/id']],
    ['an unknown action', genericAddress, { id: 'a', title: 't', do: 'explode' }, 'application/json', 400, ['/do']],
  ];
  for (const [name, address, body, contentType, status, paths] of cases) {
    const answer = await post(address, body, contentType);
    t.is(answer.status, status, name);
    t.regex(answer.headers.get('content-type') ?? '', /^application\/problem\+json/, name);
    if (paths.length > 0)
      t.deepEqual(
        answer.body.errors.map((error: any) => error.path),
        paths,
        name,
      );
  }
  t.deepEqual(await incidentsOf(app, caller, am.id), []);
  t.deepEqual(await incidentsOf(app, caller, generic.id), []);
  const shown = await app.request('GET', `/api/v1/integrations/${am.id}`, { caller });
  t.is(shown.body.data.events_received, 0, 'nothing recorded on its inbox');

  // A configuration a receiver cannot follow is refused on create and on update, naming the field.
  const policyId = await pagingPolicy(app, receiver, caller, 'bad-config');
  const refused = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name: 'g2', kind: 'generic', escalation_policy_id: policyId, config: { dedup_key: 'id', title: '/t' } },
  });
  t.is(refused.status, 400);
  t.deepEqual(
    refused.body.errors.map((error: any) => error.path),
    ['/config/dedup_key'],
  );
  const update = await app.request('PUT', `/api/v1/integrations/${am.id}`, {
    caller,
    body: {
      name: 'bad-am',
      kind: 'alertmanager',
      escalation_policy_id: am.escalation_policy_id,
      config: { incident_per: 'rule' },
    },
  });
  t.is(update.status, 400);
  t.deepEqual(
    update.body.errors.map((error: any) => error.path),
    ['/config/incident_per'],
  );
  t.is((await app.request('GET', `/api/v1/integrations/${am.id}`, { caller })).headers.get('etag'), '"0"');
});

test('each receiver takes only its own kind; every key that routes nowhere is the one 404', async (t) => {
  const caller = app.newTenant();
  const other = app.newTenant();
  const am = await pagingIntegration(app, receiver, caller, 'kinds-am', { kind: 'alertmanager' });
  const v2 = await pagingIntegration(app, receiver, caller, 'kinds-v2', { kind: 'events_v2' });
  const revoked = await pagingIntegration(app, receiver, other, 'kinds-revoked', { kind: 'alertmanager' });
  await app.request('POST', `/api/v1/integrations/${revoked.id}/revoke-key`, { caller: other });
  const payload = amPayload([amAlert('k1', 'firing')]);

  const wrongKind = await post(`/integrations/generic/${am.routing_key}`, { id: 'x' });
  t.is(wrongKind.status, 400);
  t.regex(wrongKind.body.detail, /kind is alertmanager/);
  t.is((await post(`/integrations/alertmanager/${v2.routing_key}`, payload)).status, 400);

  const nowhere = [
    `/integrations/alertmanager/${'0'.repeat(32)}`,
    `/integrations/alertmanager/${revoked.routing_key}`,
    '/integrations/alertmanager/not-a-key',
  ];
  const answers = await Promise.all(nowhere.map((path) => post(path, payload)));
  for (const answer of answers) t.is(answer.status, 404);
  t.is(new Set(answers.map((answer) => JSON.stringify(answer.body.detail))).size, 1, 'one answer, naming nothing');
  t.deepEqual(await incidentsOf(app, other, revoked.id), []);
  // Only the three receivers listen there (anything else under /integrations is no public address).
  for (const kind of ['events_v2', 'pagerduty'])
    t.true([401, 404].includes((await post(`/integrations/${kind}/${am.routing_key}`, payload)).status), kind);
  t.deepEqual(await incidentsOf(app, caller, am.id), []);
});

test('one per-key rate across the Events API v2 address and the receivers', async (t) => {
  const caller = app.newTenant();
  const generic = await pagingIntegration(app, receiver, caller, 'rate', {
    kind: 'generic',
    config: { dedup_key: '/id', title: '/title' },
  });
  const address = `/integrations/generic/${generic.routing_key}`;
  // The /v2/enqueue address counts the same key: half the minute's events there.
  for (let i = 0; i < PER_MINUTE / 2; i++)
    await app.request('POST', '/v2/enqueue', {
      body: { routing_key: generic.routing_key, event_action: 'resolve', dedup_key: 'x' },
    });
  const statuses: number[] = [];
  for (let i = 0; i < PER_MINUTE / 2 + 1; i++)
    statuses.push((await post(address, { id: 'same', title: 'Late' })).status);
  t.deepEqual(statuses.slice(0, PER_MINUTE / 2), Array(PER_MINUTE / 2).fill(202));
  const throttled = await post(address, { id: 'same', title: 'Late' });
  t.is(throttled.status, 429);
  t.truthy(throttled.headers.get('retry-after'));
});
