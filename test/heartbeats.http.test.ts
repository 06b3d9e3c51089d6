/**
 * Heartbeat monitors through the real platform (docs/heartbeats.md): CRUD with ETag/If-Match, the
 * public ping address, and the checker paging for a missed ping after interval + grace on a virtual
 * clock (the checker's and the escalation manager's timers are the platform's injected RxJS
 * scheduler). Pages go through a webhook channel to a local receiver.
 */
import test from 'ava';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEARTBEATS, type HeartbeatDoc } from '../projections/heartbeats.js';
import { HEARTBEAT_TOKEN_KEY_STREAM } from '../src/events/heartbeat.js';
import { VirtualClock } from './support/escalation-harness.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let receiver: HttpReceiver;
const clock = new VirtualClock();
const CHECK_SECONDS = 30;

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({
    now: clock.now,
    scheduler: clock.scheduler,
    heartbeatScheduler: clock.scheduler,
    env: {
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      HEARTBEAT_CHECK_INTERVAL_SECONDS: String(CHECK_SECONDS),
      HEARTBEAT_PINGS_PER_ADDRESS_PER_MINUTE: '5',
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

/** Moves the virtual clock on in check-interval steps, each step's check (and any paging timer) run to its end. */
async function advanceSeconds(seconds: number) {
  for (let left = seconds; left > 0; left -= CHECK_SECONDS) {
    const target = clock.scheduler.frame + Math.min(CHECK_SECONDS, left) * 1000;
    clock.scheduler.maxFrames = target;
    clock.scheduler.flush();
    if (clock.scheduler.frame < target) clock.scheduler.frame = target;
    clock.scheduler.maxFrames = Infinity;
    await app.platform.composition.heartbeats.schedule.idle();
  }
}

async function pagingPolicy(caller: Caller, name: string): Promise<string> {
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name, type: 'webhook', config: { url: `${receiver.url}/${name}`, method: 'POST', headers: {} } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: `${name} policy`,
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  if (policy.status !== 201) throw new Error(JSON.stringify(policy.body));
  return policy.body.data.id;
}

async function createHeartbeat(caller: Caller, policyId: string, fields: Record<string, unknown> = {}) {
  const created = await app.request('POST', '/api/v1/heartbeats', {
    caller,
    body: {
      name: `job ${randomBytes(4).toString('hex')}`,
      interval_seconds: 60,
      grace_seconds: 30,
      escalation_policy_id: policyId,
      ...fields,
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created;
}

const headerText = (headers: Headers) => {
  const lines: string[] = [];
  headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  return lines.join('\n');
};
const pingPath = (token: string, query = '') => `/hb/${token}${query}`;
const heartbeatIncidents = async (caller: Caller) =>
  (await app.request('GET', '/api/v1/incidents?source=heartbeat', { caller })).body.data as any[];
const pagesTo = (name: string) => receiver.requests.filter((request) => request.path === `/${name}`);

test.serial(
  'CRUD with ETag and If-Match; the address is shown once, masked after; lists stay in the tenant',
  async (t) => {
    const caller = app.newTenant();
    const policyId = await pagingPolicy(caller, 'crud');
    const created = await createHeartbeat(caller, policyId, { name: 'Nightly load' });
    const body = created.body.data;
    t.regex(body.token, /^hb_[A-Za-z0-9_-]{43}$/);
    t.true(body.ping_url.endsWith(`/hb/${body.token}`));
    t.like(body, {
      name: 'Nightly load',
      interval_seconds: 60,
      grace_seconds: 30,
      severity: 'high',
      enabled: true,
      status: 'new',
      has_ping_address: true,
      token_hint: `****${body.token.slice(-4)}`,
    });
    t.is(created.headers.get('etag'), '"0"');
    t.is(created.headers.get('location'), `/api/v1/heartbeats/${body.id}`);

    const shown = await app.request('GET', `/api/v1/heartbeats/${body.id}`, { caller });
    t.is(shown.headers.get('etag'), '"0"');
    t.false('token' in shown.body.data);
    t.false('ping_url' in shown.body.data);
    t.false(JSON.stringify(shown.body).includes(body.token), 'the token is never shown again');

    // Replace: a stale If-Match is refused and changes nothing; the current one applies.
    const edit = { name: 'Nightly load', interval_seconds: 120, grace_seconds: 60, escalation_policy_id: policyId };
    const stale = await app.request('PUT', `/api/v1/heartbeats/${body.id}`, {
      caller,
      body: edit,
      headers: { 'if-match': '"7"' },
    });
    t.is(stale.status, 409);
    const replaced = await app.request('PUT', `/api/v1/heartbeats/${body.id}`, {
      caller,
      body: edit,
      headers: { 'if-match': '"0"' },
    });
    t.is(replaced.status, 200);
    t.is(replaced.headers.get('etag'), '"1"');
    t.like(replaced.body.data, { interval_seconds: 120, grace_seconds: 60 });

    // A ping moves no ETag (pings have their own stream): an edit in the console is not lost to a job.
    t.is((await app.request('POST', pingPath(body.token))).status, 200);
    t.is((await app.request('GET', `/api/v1/heartbeats/${body.id}`, { caller })).headers.get('etag'), '"1"');

    // Names are unique in the tenant, ignoring case; another tenant may use the same one.
    const duplicate = await app.request('POST', '/api/v1/heartbeats', {
      caller,
      body: { ...edit, name: 'NIGHTLY LOAD' },
    });
    t.is(duplicate.status, 409);
    const other = app.newTenant();
    const otherPolicy = await pagingPolicy(other, 'crud-other');
    t.is((await createHeartbeat(other, otherPolicy, { name: 'Nightly load' })).status, 201);
    const listed = (await app.request('GET', '/api/v1/heartbeats', { caller })).body.data as any[];
    t.deepEqual(
      listed.map((h) => h.id),
      [body.id],
    );
    t.is((await app.request('GET', `/api/v1/heartbeats/${body.id}`, { caller: other })).status, 404);

    // Refused: another tenant's policy, an interval out of bounds, a viewer writing.
    const foreignPolicy = await app.request('POST', '/api/v1/heartbeats', {
      caller,
      body: { ...edit, name: 'x', escalation_policy_id: otherPolicy },
    });
    t.is(foreignPolicy.status, 400);
    t.is(foreignPolicy.body.errors[0].path, '/escalation_policy_id');
    t.is(
      (await app.request('POST', '/api/v1/heartbeats', { caller, body: { ...edit, name: 'y', interval_seconds: 30 } }))
        .status,
      400,
    );
    const viewer = { ...caller, roles: ['viewer'] };
    t.is((await app.request('GET', '/api/v1/heartbeats', { caller: viewer })).status, 200);
    t.is(
      (await app.request('POST', '/api/v1/heartbeats', { caller: viewer, body: { ...edit, name: 'z' } })).status,
      403,
    );

    // Delete: gone from reads, its address refused, its history readable.
    const deleted = await app.request('DELETE', `/api/v1/heartbeats/${body.id}`, {
      caller,
      headers: { 'if-match': '"1"' },
    });
    t.deepEqual(deleted.body.data, { id: body.id, deleted: true });
    t.is((await app.request('GET', `/api/v1/heartbeats/${body.id}`, { caller })).status, 404);
    t.is((await app.request('POST', pingPath(body.token))).status, 404);
    const history = (await app.request('GET', `/api/v1/heartbeats/${body.id}/events`, { caller })).body.data as any[];
    t.deepEqual(
      history.map((entry) => entry.type),
      ['HeartbeatCreated', 'HeartbeatUpdated', 'HeartbeatDeleted'],
    );
    t.false(JSON.stringify(history).includes(body.token));
  },
);

test.serial('a missed ping pages after interval + grace, not before; the next ping resolves it', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'missed');
  const { body } = await createHeartbeat(caller, policyId, { name: 'Hourly export' });
  const { id, token } = body.data;
  await advanceSeconds(CHECK_SECONDS); // align the checks on the clock
  t.is((await app.request('GET', pingPath(token))).status, 200);
  const pingedAt = clock.now().toISOString();

  // 60 s interval: late, which does not page.
  await advanceSeconds(60);
  t.is((await app.request('GET', `/api/v1/heartbeats/${id}`, { caller })).body.data.status, 'late');
  t.deepEqual(await heartbeatIncidents(caller), []);

  // Interval + grace (90 s): down, and paged through the policy.
  await advanceSeconds(30);
  const [incident] = await heartbeatIncidents(caller);
  t.like(incident, {
    source: 'heartbeat',
    status: 'triggered',
    title: 'Hourly export missed its heartbeat',
    detail: `no ping since ${pingedAt}; expected every 1 min (grace 30 s)`,
    severity: 'high',
    escalation_policy_id: policyId,
    rule_id: null,
  });
  t.like((await app.request('GET', `/api/v1/heartbeats/${id}`, { caller })).body.data, {
    status: 'down',
    open_incident_id: incident.id,
    pages_at: null,
  });
  await advanceSeconds(CHECK_SECONDS);
  await waitFor(() => pagesTo('missed').length === 1, { timeoutMs: 15_000, message: 'the page delivered' });

  // Further checks page nothing more.
  await advanceSeconds(5 * 60);
  t.is((await heartbeatIncidents(caller)).length, 1);

  // The next ping resolves it, saying why.
  t.is((await app.request('POST', pingPath(token))).status, 200);
  const resolved = (await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller })).body.data;
  t.like(resolved, { status: 'resolved', resolution_reason: 'auto' });
  t.regex(resolved.resolution_note, /a ping arrived at .*: the job ran/);
  t.is((await app.request('GET', `/api/v1/heartbeats/${id}`, { caller })).body.data.status, 'up');

  // A heartbeat never pinged pages too, from its creation.
  const silent = (await createHeartbeat(caller, policyId, { name: 'Never ran' })).body.data;
  await advanceSeconds(120);
  const titles = (await heartbeatIncidents(caller)).map((i) => i.title);
  t.true(titles.includes('Never ran missed its heartbeat'));
  t.is((await app.request('GET', `/api/v1/heartbeats/${silent.id}`, { caller })).body.data.status, 'down');
});

test.serial(
  'status=fail pages at once with its message; disabling resolves; a disabled heartbeat pages for nothing',
  async (t) => {
    const caller = app.newTenant();
    const policyId = await pagingPolicy(caller, 'failed');
    const { id, token } = (await createHeartbeat(caller, policyId, { name: 'dbt run', severity: 'critical' })).body
      .data;
    const failed = await app.request('POST', pingPath(token, '?status=fail'), {
      body: 'model orders failed: relation "raw.orders" does not exist',
      headers: { 'content-type': 'text/plain' },
    });
    t.deepEqual(failed.body, { ok: true, status: 'fail' });
    const [incident] = await heartbeatIncidents(caller);
    t.like(incident, {
      source: 'heartbeat',
      status: 'triggered',
      title: 'dbt run reported a failed run',
      detail: 'model orders failed: relation "raw.orders" does not exist',
      severity: 'critical',
    });
    t.is((await app.request('GET', `/api/v1/heartbeats/${id}`, { caller })).body.data.status, 'failed');
    await advanceSeconds(CHECK_SECONDS);
    await waitFor(() => pagesTo('failed').length === 1, { timeoutMs: 15_000, message: 'the page delivered' });

    // A JSON body says the same; the message is cut to 500 characters.
    const { body: again } = await app.request('POST', pingPath(token), {
      body: { status: 'fail', message: 'x'.repeat(900) },
    });
    t.deepEqual(again, { ok: true, status: 'fail' });
    t.is((await heartbeatIncidents(caller)).length, 1, 'one open incident per heartbeat');
    t.is((await app.request('GET', `/api/v1/heartbeats/${id}`, { caller })).body.data.last_ping_message.length, 500);

    // Disabled: its open incident resolves, and a failed run no longer pages.
    const current = await app.request('GET', `/api/v1/heartbeats/${id}`, { caller });
    const disabled = await app.request('PUT', `/api/v1/heartbeats/${id}`, {
      caller,
      headers: { 'if-match': current.headers.get('etag')! },
      body: {
        name: 'dbt run',
        interval_seconds: 60,
        grace_seconds: 30,
        escalation_policy_id: policyId,
        severity: 'critical',
        enabled: false,
      },
    });
    t.is(disabled.body.data.status, 'paused');
    const afterDisable = (await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller })).body.data;
    t.like(afterDisable, { status: 'resolved', resolution_note: 'the heartbeat was disabled' });
    t.is((await app.request('POST', pingPath(token, '?status=fail'))).status, 200);
    await advanceSeconds(300);
    t.is((await heartbeatIncidents(caller)).filter((i) => i.status !== 'resolved').length, 0);
  },
);

test.serial('a wrong, rotated-away, revoked or deleted address gets the identical 404, naming nothing', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'refused');
  const first = (await createHeartbeat(caller, policyId)).body.data;
  const rotated = await app.request('POST', `/api/v1/heartbeats/${first.id}/rotate-token`, { caller });
  t.is(rotated.status, 200);
  const fresh = rotated.body.data.token;
  t.not(fresh, first.token);
  t.true(rotated.body.data.ping_url.endsWith(`/hb/${fresh}`));
  t.is((await app.request('GET', pingPath(fresh))).status, 200, 'the new address works');

  const revokedOne = (await createHeartbeat(caller, policyId)).body.data;
  const revoke = await app.request('POST', `/api/v1/heartbeats/${revokedOne.id}/revoke-token`, { caller });
  t.like(revoke.body.data, { has_ping_address: false, token_hint: null });
  const deletedOne = (await createHeartbeat(caller, policyId)).body.data;
  await app.request('DELETE', `/api/v1/heartbeats/${deletedOne.id}`, { caller });

  const addresses = {
    'never issued': `hb_${randomBytes(32).toString('base64url')}`,
    malformed: 'hb_short',
    'rotated away': first.token,
    revoked: revokedOne.token,
    deleted: deletedOne.token,
  };
  const answers: Record<string, unknown> = {};
  for (const [what, token] of Object.entries(addresses)) {
    for (const method of ['GET', 'POST']) {
      const answer = await app.request(method, pingPath(token));
      t.is(answer.status, 404, `${method} ${what}`);
      const { request_id: _request, ...problem } = answer.body;
      answers[`${method} ${what}`] = problem;
      const text = JSON.stringify(answer.body) + headerText(answer.headers);
      for (const secret of [caller.tenantId, first.id, revokedOne.id, deletedOne.id, policyId])
        t.false(text.includes(secret), `${what} names nothing`);
    }
  }
  const distinct = new Set(Object.values(answers).map((answer) => JSON.stringify(answer)));
  t.is(distinct.size, 1, JSON.stringify(answers));
  t.like([...distinct].map((text) => JSON.parse(text))[0], {
    status: 404,
    detail: 'no heartbeat has this ping address',
  });

  // Rotating a revoked heartbeat gives it an address again.
  const back = await app.request('POST', `/api/v1/heartbeats/${revokedOne.id}/rotate-token`, { caller });
  t.is((await app.request('POST', pingPath(back.body.data.token))).status, 200);
});

test.serial('a taken ping answers no tenant data; pings per address are limited, with Retry-After', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'limited');
  const one = (await createHeartbeat(caller, policyId, { name: 'Limited job' })).body.data;
  const two = (await createHeartbeat(caller, policyId)).body.data;
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await app.request('POST', pingPath(one.token)));
  for (const answer of answers) {
    t.is(answer.status, 200);
    t.deepEqual(answer.body, { ok: true, status: 'success' });
    const text = headerText(answer.headers);
    for (const secret of [caller.tenantId, one.id, 'Limited job', policyId]) t.false(text.includes(secret));
  }
  const limited = await app.request('POST', pingPath(one.token));
  t.is(limited.status, 429);
  t.true(Number(limited.headers.get('retry-after')) >= 1);
  t.is(limited.headers.get('content-type'), 'application/problem+json');
  // Another address has its own allowance; a refused ping changed nothing.
  t.is((await app.request('POST', pingPath(two.token))).status, 200);

  // Bad input is refused, changes nothing, and says nothing of the address.
  t.is((await app.request('GET', pingPath(two.token, '?status=maybe'))).status, 400);
  t.is((await app.request('GET', pingPath(two.token, '?tenant=1'))).status, 400);
  const large = await app.request('POST', pingPath(two.token), {
    body: 'x'.repeat(11 * 1024),
    headers: { 'content-type': 'text/plain' },
  });
  t.is(large.status, 413);
});

test.serial('an EventBridge event of a Redshift scheduled query that FAILED pages; FINISHED resolves', async (t) => {
  const caller = app.newTenant();
  const policyId = await pagingPolicy(caller, 'redshift');
  const { id, token } = (await createHeartbeat(caller, policyId, { name: 'Redshift nightly' })).body.data;
  const event = (state: string) => ({
    version: '0',
    'detail-type': 'Redshift Data Statement Status Change',
    source: 'aws.redshift-data',
    detail: { statementName: 'nightly.rollup', state, redshiftQueryId: -1 },
  });
  t.deepEqual((await app.request('POST', pingPath(token), { body: event('FAILED') })).body, {
    ok: true,
    status: 'fail',
  });
  const [incident] = await heartbeatIncidents(caller);
  t.like(incident, { status: 'triggered', detail: 'Redshift: nightly.rollup FAILED' });
  t.deepEqual((await app.request('POST', pingPath(token), { body: event('FINISHED') })).body, {
    ok: true,
    status: 'success',
  });
  t.is((await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller })).body.data.status, 'resolved');
  t.is(
    (await app.request('GET', `/api/v1/heartbeats/${id}`, { caller })).body.data.last_ping_message,
    'Redshift: nightly.rollup FINISHED',
  );
});

test.serial(
  'at rest: no token in the log or the read model, only its HMAC under a key that is itself sealed',
  async (t) => {
    const caller = app.newTenant();
    const policyId = await pagingPolicy(caller, 'at-rest');
    const { id, token } = (await createHeartbeat(caller, policyId)).body.data;
    const rotated = (await app.request('POST', `/api/v1/heartbeats/${id}/rotate-token`, { caller })).body.data.token;
    t.is((await app.request('POST', pingPath(rotated))).status, 200);
    const [keyEvent, ...more] = await app.platform.eventStore.readStream(HEARTBEAT_TOKEN_KEY_STREAM);
    t.deepEqual(more, [], 'one key for the deployment');
    const key = Buffer.from(String(keyEvent!.data.key), 'base64url');
    t.is(key.length, 32);
    const doc = await app.platform.readStore.get<HeartbeatDoc>(HEARTBEATS, id);
    t.is(doc!.tokenHash, createHmac('sha256', key).update(rotated).digest('hex'));
    const files = ['events.db', 'events.db-wal', 'read-models.db', 'read-models.db-wal']
      .filter((name) => existsSync(join(app.dataDir, name)))
      .map((name) => readFileSync(join(app.dataDir, name)).toString('latin1'))
      .join('');
    t.true(files.includes(doc!.tokenHash!), 'the read model holds the hash');
    for (const secret of [token, rotated, String(keyEvent!.data.key)])
      t.false(files.includes(secret), 'a secret in the clear');
    t.true(files.includes('"key":"enc:v1:'), 'the key is sealed');
  },
);
