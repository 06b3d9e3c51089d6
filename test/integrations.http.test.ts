/**
 * Integrations through the real platform (docs/integrations.md): CRUD with ETag/If-Match, the
 * routing key shown once and masked after, history, tenancy; and the Events API v2 address paging
 * through the integration's policy: a trigger opens an incident that pages once, repeats count and
 * page nobody, acknowledge and resolve from the sender act as the integration, a trigger after
 * resolution opens a new incident, 1,000 triggers over 10 keys open 10 incidents and page 10
 * times, and every key that routes nowhere gets the one answer that names nothing. Pages go
 * through a webhook channel to a local receiver.
 */
import test from 'ava';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTEGRATIONS, type IntegrationDoc } from '../projections/integrations.js';
import { HEARTBEAT_TOKEN_KEY_STREAM } from '../src/events/heartbeat.js';
import { TEST_AUDIENCE } from './support/jwks-server.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import {
  incidentsOf as sharedIncidentsOf,
  pagesTo as sharedPagesTo,
  pagingPolicy as sharedPagingPolicy,
} from './support/integration-fixtures.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let receiver: HttpReceiver;

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({
    env: {
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: '1000',
      // Pager channels send to this platform's own Events API v2 address.
      PAGER_EVENTS_URL: `${TEST_AUDIENCE}/v2/enqueue`,
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

const pagingPolicy = (caller: Caller, name: string) => sharedPagingPolicy(app, receiver, caller, name);

async function createIntegration(caller: Caller, policyId: string, fields: Record<string, unknown> = {}) {
  const created = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name: `airflow ${Math.random()}`, kind: 'events_v2', escalation_policy_id: policyId, ...fields },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created;
}

const enqueue = (body: unknown) => app.request('POST', '/v2/enqueue', { body });
const trigger = (routingKey: string, dedupKey: string | undefined, summary = 'ETL failed', severity = 'error') =>
  enqueue({
    routing_key: routingKey,
    event_action: 'trigger',
    ...(dedupKey === undefined ? {} : { dedup_key: dedupKey }),
    payload: { summary, source: 'airflow', severity, custom_details: { dag: 'etl' } },
    links: [{ href: 'https://airflow.example/dag/etl', text: 'DAG' }],
  });
const pagesTo = (name: string) => sharedPagesTo(receiver, name);
const incidentsOf = (caller: Caller, integrationId: string) => sharedIncidentsOf(app, caller, integrationId);

test.serial('CRUD with ETag and If-Match; the key is shown once, masked after; lists stay in the tenant', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'crud');
  const created = await createIntegration(caller, policyId, { name: 'Airflow' });
  const body = created.body.data;
  t.regex(body.routing_key, /^[0-9a-f]{32}$/);
  t.true(body.events_url.endsWith('/v2/enqueue'));
  t.like(body, {
    name: 'Airflow',
    kind: 'events_v2',
    has_routing_key: true,
    routing_key_hint: `****${body.routing_key.slice(-4)}`,
    severity_map: { critical: 'critical', error: 'high', warning: 'medium', info: 'low' },
    default_severity: 'high',
  });
  t.is(created.headers.get('etag'), '"0"');
  t.is(created.headers.get('location'), `/api/v1/integrations/${body.id}`);
  const shown = await app.request('GET', `/api/v1/integrations/${body.id}`, { caller });
  t.is(shown.headers.get('etag'), '"0"');
  t.false(JSON.stringify(shown.body).includes(body.routing_key), 'the key is never shown again');

  const edit = { name: 'Airflow prod', kind: 'events_v2', escalation_policy_id: policyId, default_severity: 'low' };
  const stale = await app.request('PUT', `/api/v1/integrations/${body.id}`, {
    caller,
    body: edit,
    headers: { 'if-match': '"7"' },
  });
  t.is(stale.status, 409);
  const replaced = await app.request('PUT', `/api/v1/integrations/${body.id}`, {
    caller,
    body: edit,
    headers: { 'if-match': '"0"' },
  });
  t.is(replaced.status, 200);
  t.is(replaced.headers.get('etag'), '"1"');
  t.like(replaced.body.data, { name: 'Airflow prod', default_severity: 'low' });
  const kindChange = await app.request('PUT', `/api/v1/integrations/${body.id}`, {
    caller,
    body: { ...edit, kind: 'sns' },
  });
  t.is(kindChange.status, 409);

  // An event moves no ETag (the inbox is its own stream).
  t.is((await trigger(body.routing_key, 'crud')).status, 202);
  t.is((await app.request('GET', `/api/v1/integrations/${body.id}`, { caller })).headers.get('etag'), '"1"');

  const duplicate = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { ...edit, name: 'AIRFLOW PROD' },
  });
  t.is(duplicate.status, 409);
  const other = app.newTenant();
  const otherPolicy = await pagingPolicy(other, 'crud-other');
  t.is((await createIntegration(other, otherPolicy, { name: 'Airflow prod' })).status, 201);
  const listed = (await app.request('GET', '/api/v1/integrations', { caller })).body.data as any[];
  t.deepEqual(
    listed.map((i) => i.id),
    [body.id],
  );
  t.is((await app.request('GET', `/api/v1/integrations/${body.id}`, { caller: other })).status, 404);
  t.is((await app.request('DELETE', `/api/v1/integrations/${body.id}`, { caller: other })).status, 404);

  const foreignPolicy = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { ...edit, name: 'x', escalation_policy_id: otherPolicy },
  });
  t.is(foreignPolicy.status, 400);
  t.is(foreignPolicy.body.errors[0].path, '/escalation_policy_id');
  t.is((await app.request('POST', '/api/v1/integrations', { caller, body: { ...edit, kind: 'nagios' } })).status, 400);
  const viewer = { ...caller, roles: ['viewer'] };
  t.is((await app.request('GET', '/api/v1/integrations', { caller: viewer })).status, 200);
  t.is(
    (await app.request('POST', '/api/v1/integrations', { caller: viewer, body: { ...edit, name: 'z' } })).status,
    403,
  );

  const deleted = await app.request('DELETE', `/api/v1/integrations/${body.id}`, {
    caller,
    headers: { 'if-match': '"1"' },
  });
  t.deepEqual(deleted.body.data, { id: body.id, deleted: true });
  t.is((await app.request('GET', `/api/v1/integrations/${body.id}`, { caller })).status, 404);
  const history = (await app.request('GET', `/api/v1/integrations/${body.id}/events`, { caller })).body.data as any[];
  t.deepEqual(
    history.map((entry) => entry.type),
    ['IntegrationCreated', 'IntegrationUpdated', 'IntegrationDeleted'],
  );
  t.false(JSON.stringify(history).includes(body.routing_key));
});

test.serial(
  'a trigger opens an incident that pages once; repeats count; the sender acknowledges and resolves',
  async (t) => {
    const caller = app.newTenant();
    const policyId = await pagingPolicy(caller, 'lifecycle');
    const integration = (await createIntegration(caller, policyId)).body.data;
    const key = integration.routing_key;

    const first = await trigger(key, 'etl-nightly', 'ETL failed', 'critical');
    t.is(first.status, 202);
    t.deepEqual(first.body, { status: 'success', message: 'Event processed', dedup_key: 'etl-nightly' });
    let [incident] = await incidentsOf(caller, integration.id);
    t.like(incident, {
      source: `integration:${integration.id}`,
      title: 'ETL failed',
      dedup_key: 'etl-nightly',
      alert_count: 1,
      status: 'triggered',
      severity: 'critical',
      escalation_policy_id: policyId,
    });
    t.like(incident.sender, { source: 'airflow', severity: 'critical', custom_details: { dag: 'etl' } });
    t.deepEqual(incident.sender.links, [{ href: 'https://airflow.example/dag/etl', text: 'DAG' }]);
    await waitFor(() => pagesTo('lifecycle').length === 1, { timeoutMs: 10_000, message: 'the page' });

    for (let i = 0; i < 4; i++) t.is((await trigger(key, 'etl-nightly')).status, 202);
    await waitFor(async () => (await incidentsOf(caller, integration.id))[0]?.alert_count === 5, {
      timeoutMs: 10_000,
      message: 'five alerts counted',
    });
    t.is((await incidentsOf(caller, integration.id)).length, 1);

    t.is((await enqueue({ routing_key: key, event_action: 'acknowledge', dedup_key: 'etl-nightly' })).status, 202);
    [incident] = await incidentsOf(caller, integration.id);
    t.like(incident, { status: 'acknowledged', acknowledged_by: `integration:${integration.id}` });
    t.is((await enqueue({ routing_key: key, event_action: 'resolve', dedup_key: 'etl-nightly' })).status, 202);
    [incident] = await incidentsOf(caller, integration.id);
    t.like(incident, { status: 'resolved', resolved_by: `integration:${integration.id}`, resolution_reason: 'auto' });
    t.is(pagesTo('lifecycle').length, 1, 'repeats, the acknowledgement and the resolution page nobody');

    // After resolution the same key opens a new incident, which pages.
    t.is((await trigger(key, 'etl-nightly')).status, 202);
    const both = await incidentsOf(caller, integration.id);
    t.is(both.length, 2);
    t.like(both[0], { status: 'triggered', alert_count: 1, ordinal: 2, severity: 'high' });
    await waitFor(() => pagesTo('lifecycle').length === 2, { timeoutMs: 10_000, message: 'the second page' });

    // An acknowledge or resolve of a key with nothing open is accepted and ignored, as PagerDuty does.
    t.is((await enqueue({ routing_key: key, event_action: 'resolve', dedup_key: 'never-opened' })).status, 202);
    t.is((await incidentsOf(caller, integration.id)).length, 2);

    // Lists filter by source: all integrations, or none of them.
    const all = (await app.request('GET', '/api/v1/incidents?source=integration', { caller })).body.data as any[];
    t.is(all.length, 2);
    t.is(((await app.request('GET', '/api/v1/incidents?source=heartbeat', { caller })).body.data as any[]).length, 0);
    const seen = (await app.request('GET', `/api/v1/integrations/${integration.id}`, { caller })).body.data;
    t.is(seen.events_received, 9);
  },
);

test.serial('a trigger without a dedup key gets one, answered, which resolves it', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'generated');
  const { routing_key: key, id } = (await createIntegration(caller, policyId)).body.data;
  const answer = await trigger(key, undefined);
  t.is(answer.status, 202);
  t.regex(answer.body.dedup_key, /^[0-9a-f]{32}$/);
  const again = await trigger(key, undefined);
  t.not(again.body.dedup_key, answer.body.dedup_key, 'each trigger without a key is its own alert');
  t.is((await incidentsOf(caller, id)).length, 2);
  await enqueue({ routing_key: key, event_action: 'resolve', dedup_key: answer.body.dedup_key });
  const resolved = (await incidentsOf(caller, id)).find((i) => i.dedup_key === answer.body.dedup_key);
  t.is(resolved.status, 'resolved');
});

test.serial("wrong, revoked, rotated-away, deleted and other tenants' keys: one answer naming nothing", async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'keys');
  const integration = (await createIntegration(caller, policyId)).body.data;
  const old = integration.routing_key;
  const refusal = { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] };

  const never = await trigger('0'.repeat(32), 'k');
  t.is(never.status, 400);
  t.deepEqual(never.body, refusal);

  // Rotation with a grace: both keys work; the answer shows the new key once.
  const rotated = await app.request('POST', `/api/v1/integrations/${integration.id}/rotate-key`, {
    caller,
    body: { grace_seconds: 3600 },
  });
  t.is(rotated.status, 200);
  const fresh = rotated.body.data.routing_key;
  t.not(fresh, old);
  t.truthy(rotated.body.data.previous_key_valid_until);
  t.is((await trigger(old, 'k')).status, 202);
  t.is((await trigger(fresh, 'k')).status, 202);
  // Rotation without a grace: the replaced key stops at once.
  const again = await app.request('POST', `/api/v1/integrations/${integration.id}/rotate-key`, {
    caller,
    body: { grace_seconds: 0 },
  });
  const newest = again.body.data.routing_key;
  t.deepEqual((await trigger(fresh, 'k')).body, refusal);
  t.is((await trigger(newest, 'k')).status, 202);

  // Revoked: refused the same way; the integration stays, with no key.
  const revoked = await app.request('POST', `/api/v1/integrations/${integration.id}/revoke-key`, { caller });
  t.like(revoked.body.data, { has_routing_key: false, routing_key_hint: null });
  const afterRevoke = await trigger(newest, 'k');
  t.is(afterRevoke.status, 400);
  t.deepEqual(afterRevoke.body, refusal);

  // Another tenant's live key opens that tenant's incident, never this one's.
  const other = app.newTenant();
  const otherIntegration = (await createIntegration(other, await pagingPolicy(other, 'keys-other'))).body.data;
  t.is((await trigger(otherIntegration.routing_key, 'k')).status, 202);
  t.is((await incidentsOf(caller, otherIntegration.id)).length, 0);
  t.is((await incidentsOf(other, otherIntegration.id)).length, 1);
  // Deleted: refused the same way.
  await app.request('DELETE', `/api/v1/integrations/${otherIntegration.id}`, { caller: other });
  t.deepEqual((await trigger(otherIntegration.routing_key, 'k')).body, refusal);
});

test.serial("change events are recorded on the tenant's record and page nobody", async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'changes');
  const integration = (await createIntegration(caller, policyId)).body.data;
  const answer = await app.request('POST', '/v2/change/enqueue', {
    body: {
      routing_key: integration.routing_key,
      payload: { summary: 'Deployed dbt models v42', source: 'dbt', timestamp: '2026-03-01T08:42:58.315+0000' },
      links: [{ href: 'https://ci.example/42' }],
    },
  });
  t.is(answer.status, 202);
  t.deepEqual(answer.body, { status: 'success', message: 'Change event processed' });
  const listed = (await app.request('GET', '/api/v1/change-events', { caller })).body.data as any[];
  t.is(listed.length, 1);
  t.like(listed[0], {
    integration_id: integration.id,
    summary: 'Deployed dbt models v42',
    source: 'dbt',
    timestamp: '2026-03-01T08:42:58.315Z',
    links: [{ href: 'https://ci.example/42', text: null }],
  });
  t.is((await incidentsOf(caller, integration.id)).length, 0);
  t.is(pagesTo('changes').length, 0);
  const other = app.newTenant();
  t.is(((await app.request('GET', '/api/v1/change-events', { caller: other })).body.data as any[]).length, 0);
});

test.serial('1,000 triggers over 10 dedup keys open 10 incidents and page 10 times', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'burst');
  const { routing_key: key, id } = (await createIntegration(caller, policyId)).body.data;
  const statuses: number[] = [];
  // 20 senders at once, each sending its share of the 1,000 in turn.
  await Promise.all(
    Array.from({ length: 20 }, async (_, sender) => {
      for (let i = 0; i < 50; i++) statuses.push((await trigger(key, `job-${(sender * 50 + i) % 10}`)).status);
    }),
  );
  t.deepEqual([...new Set(statuses)], [202]);
  await waitFor(
    async () => {
      const incidents = await incidentsOf(caller, id);
      return incidents.reduce((sum, incident) => sum + incident.alert_count, 0) === 1000;
    },
    { timeoutMs: 20_000, message: 'every trigger counted' },
  );
  const incidents = await incidentsOf(caller, id);
  t.is(incidents.length, 10);
  t.deepEqual(incidents.map((i) => i.alert_count).sort(), Array(10).fill(100));
  await waitFor(() => pagesTo('burst').length >= 10, { timeoutMs: 20_000, message: 'ten pages' });
  t.is(pagesTo('burst').length, 10);
  t.is(new Set(pagesTo('burst').map((r) => JSON.parse(r.body).incident.id)).size, 10, 'one page per incident');
});

test.serial("a pager channel that would page back into the tenant's own integration is refused", async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'loop');
  const own = (await createIntegration(caller, policyId)).body.data.routing_key;
  const pager = (integration_key: string) => ({
    name: `pager ${integration_key.slice(-4)}`,
    type: 'pager',
    config: { integration_key, severity_mapping: {} },
  });
  const refused = await app.request('POST', '/api/v1/notification-channels', { caller, body: pager(own) });
  t.is(refused.status, 400);
  t.is(refused.body.errors[0].path, '/config/integration_key');
  t.regex(refused.body.detail, /loop/);
  t.false(JSON.stringify(refused.body).includes(own));
  // Another tenant's key and a key of no integration are not this tenant's loop.
  const other = app.newTenant();
  const theirs = (await createIntegration(other, await pagingPolicy(other, 'loop-other'))).body.data.routing_key;
  t.is((await app.request('POST', '/api/v1/notification-channels', { caller, body: pager(theirs) })).status, 201);
  const elsewhere = await app.request('POST', '/api/v1/notification-channels', { caller, body: pager('a'.repeat(32)) });
  t.is(elsewhere.status, 201);
  // Nor may an existing pager channel be pointed at it.
  const changed = await app.request('PUT', `/api/v1/notification-channels/${elsewhere.body.data.id}`, {
    caller,
    body: { config: { integration_key: own, severity_mapping: {} } },
  });
  t.is(changed.status, 400);
  const channels = (await app.request('GET', '/api/v1/notification-channels', { caller })).body.data as any[];
  t.is(channels.filter((c) => c.type === 'pager').length, 2);
});

test.serial('paging by hand: POST /incidents opens a manual incident on the policy, which pages', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'manual');
  const opened = await app.request('POST', '/api/v1/incidents', {
    caller,
    body: {
      title: 'Redshift is refusing connections',
      severity: 'critical',
      details: 'seen from Looker',
      escalation_policy_id: policyId,
    },
  });
  t.is(opened.status, 201);
  const incident = opened.body.data;
  t.like(incident, {
    source: 'manual',
    title: 'Redshift is refusing connections',
    detail: 'seen from Looker',
    severity: 'critical',
    status: 'triggered',
    escalation_policy_id: policyId,
    alert_count: 1,
    dedup_key: null,
  });
  t.is(opened.headers.get('location'), `/api/v1/incidents/${incident.id}`);
  await waitFor(() => pagesTo('manual').length === 1, { timeoutMs: 10_000, message: 'the page' });
  const second = await app.request('POST', '/api/v1/incidents', {
    caller,
    body: { title: 'Redshift is refusing connections', escalation_policy_id: policyId },
  });
  t.not(second.body.data.id, incident.id, 'each request opens one');
  t.is(second.body.data.severity, 'high');
  const manual = (await app.request('GET', '/api/v1/incidents?source=manual', { caller })).body.data as any[];
  t.is(manual.length, 2);

  // Refused, changing nothing: another tenant's policy, no title, a viewer.
  const other = app.newTenant();
  const foreign = await app.request('POST', '/api/v1/incidents', {
    caller,
    body: { title: 'x', escalation_policy_id: await pagingPolicy(other, 'manual-other') },
  });
  t.is(foreign.status, 400);
  t.is(foreign.body.errors[0].path, '/escalation_policy_id');
  t.is(
    (await app.request('POST', '/api/v1/incidents', { caller, body: { escalation_policy_id: policyId } })).status,
    400,
  );
  const viewer = { ...caller, roles: ['viewer'] };
  t.is(
    (
      await app.request('POST', '/api/v1/incidents', {
        caller: viewer,
        body: { title: 'x', escalation_policy_id: policyId },
      })
    ).status,
    403,
  );
  t.is(((await app.request('GET', '/api/v1/incidents?source=manual', { caller })).body.data as any[]).length, 2);
});

test.serial('at rest: no routing key in the log or the read model, only its HMAC under a sealed key', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'at-rest');
  const { id, routing_key: first } = (await createIntegration(caller, policyId)).body.data;
  const rotated = (
    await app.request('POST', `/api/v1/integrations/${id}/rotate-key`, { caller, body: { grace_seconds: 60 } })
  ).body.data.routing_key;
  t.is((await trigger(rotated, 'at-rest')).status, 202);
  const [keyEvent] = await app.platform.eventStore.readStream(HEARTBEAT_TOKEN_KEY_STREAM);
  const key = Buffer.from(String(keyEvent!.data.key), 'base64url');
  const doc = await app.platform.readStore.get<IntegrationDoc>(INTEGRATIONS, id);
  t.is(doc!.keyHash, createHmac('sha256', key).update(rotated).digest('hex'));
  t.is(doc!.previousKeyHash, createHmac('sha256', key).update(first).digest('hex'));
  const files = ['events.db', 'events.db-wal', 'read-models.db', 'read-models.db-wal']
    .filter((name) => existsSync(join(app.dataDir, name)))
    .map((name) => readFileSync(join(app.dataDir, name)).toString('latin1'))
    .join('');
  t.true(files.includes(doc!.keyHash!), 'the read model holds the hash');
  for (const secret of [first, rotated, String(keyEvent!.data.key)])
    t.false(files.includes(secret), 'a secret in the clear');
});

test.serial('analytics group incidents by source: each integration, and paging by hand', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'by-source');
  const integration = (await createIntegration(caller, policyId)).body.data;
  const since = new Date(Date.now() - 60_000).toISOString();
  for (const key of ['load-a', 'load-b', 'load-a']) t.is((await trigger(integration.routing_key, key)).status, 202);
  const manual = await app.request('POST', '/api/v1/incidents', {
    caller,
    body: { title: 'Looker cannot connect', escalation_policy_id: policyId },
  });
  t.is(manual.status, 201);
  const opened = async () => {
    const until = new Date(Date.now() + 60_000).toISOString();
    const answer = await app.request(
      'GET',
      `/api/v1/analytics/incidents?since=${since}&until=${until}&group_by=source`,
      {
        caller,
      },
    );
    return Object.fromEntries(
      (answer.body.data.groups as { key: string; opened: number }[]).map((group) => [group.key, group.opened]),
    );
  };
  await waitFor(async () => Object.keys(await opened()).length === 2, {
    timeoutMs: 30_000,
    message: 'both sources in the analytics',
  });
  t.deepEqual(await opened(), { [`integration:${integration.id}`]: 2, manual: 1 });
});
