/**
 * The platform watches itself (issue 38 §3) on the real app: an evaluator that stops ticking, a
 * failing or stuck projection and a delivery whose every attempt fails each open one `platform`
 * incident on PLATFORM_ALERTS_POLICY_ID (in that policy's tenant), and each resolves by itself when
 * its cause clears. The watch's timers and the platform's clock are virtual; the evaluator ticks
 * every real second. The operator's policy is made first, then the platform restarts with it set,
 * as an operator would configure it.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveryOutcome, NotifyPort, NotifyTarget } from '../src/gateways/notify/port.js';
import type { ProjectionStatus } from '../src/projection-runner/runner.js';
import { startTestIdentityProvider, type TestIdentityProvider } from './support/jwks-server.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { virtualClock } from './support/virtual-clock.js';
import { waitFor } from './support/wait-for.js';
import { chatPolicy } from './support/escalation-policy-fixtures.js';

const clock = virtualClock(Date.now());
/** Channels whose every delivery fails (a 400: not worth another attempt, so the failure is final). */
const failing = new Set<string>();
const notify: NotifyPort = {
  async deliver(target: NotifyTarget): Promise<DeliveryOutcome> {
    const channelId = 'channelId' in target ? target.channelId : undefined;
    if (channelId && failing.has(channelId))
      return {
        ok: false,
        medium: target.medium,
        target: `channel:${channelId}`,
        status_code: 400,
        latency_ms: 1,
        error: { kind: 'http', message: 'HTTP 400 Bad Request' },
      };
    return { ok: true, medium: target.medium, target: 'test', latency_ms: 1 };
  },
};

let idp: TestIdentityProvider;
let app: TestApp;
let operator: Caller;
let operatorPolicy: string;

test.before(async () => {
  idp = await startTestIdentityProvider();
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-watch-'));
  const first = await startTestApp({ idp, dataDir });
  operator = first.newTenant();
  operatorPolicy = (await chatPolicy(first, operator, 'Platform')).policyId;
  await first.close();
  app = await startTestApp({
    idp,
    dataDir,
    now: clock.now,
    watchTimers: clock.timers('watch'),
    notify,
    env: {
      PLATFORM_ALERTS_POLICY_ID: operatorPolicy,
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      PLATFORM_PROJECTION_STUCK_SECONDS: '5',
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await idp?.stop();
});

/** The operator tenant's platform incidents whose title matches. */
const platformIncidents = async (title: RegExp) =>
  ((await app.request('GET', '/api/v1/incidents?source=platform', { caller: operator })).body.data as any[]).filter(
    (incident) => title.test(incident.title),
  );

/** Moves the watch's clock by one check (the evaluator's interval) and waits for `condition`. */
async function checkUntil(condition: () => Promise<boolean>, message: string) {
  await clock.advance(1000);
  await waitFor(condition, { timeoutMs: 10_000, message });
}

const evaluatorTicks = async () => {
  const text = (await app.request('GET', '/metrics')).body as string;
  return Number(/^evaluator_ticks_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
};

test.serial(
  'an evaluator that stops ticking pages through the platform policy; ticking again resolves it',
  async (t) => {
    const schedule = app.platform.composition.alerting.processes[0]!;
    await waitFor(async () => (await evaluatorTicks()) > 0, { timeoutMs: 10_000, message: 'a first tick' });
    await schedule.stop();
    await clock.advance(3000);
    await waitFor(async () => (await platformIncidents(/alert evaluator has not ticked/)).length === 1, {
      timeoutMs: 10_000,
      message: 'the evaluator incident',
    });
    const [incident] = await platformIncidents(/alert evaluator has not ticked/);
    t.like(incident, {
      source: 'platform',
      status: 'triggered',
      severity: 'critical',
      escalation_policy_id: operatorPolicy,
      title: 'The alert evaluator has not ticked for 3 intervals',
    });
    t.regex((await app.request('GET', '/metrics')).body as string, /platform_watch_failing\{cause="evaluator"\} 1/);
    // More checks while it stays stalled: still the one incident.
    await clock.advance(2000);
    t.is((await platformIncidents(/alert evaluator has not ticked/)).length, 1);

    const before = await evaluatorTicks();
    schedule.start();
    await waitFor(async () => (await evaluatorTicks()) > before, { timeoutMs: 10_000, message: 'a tick again' });
    await checkUntil(
      async () => (await platformIncidents(/alert evaluator has not ticked/))[0]?.status === 'resolved',
      'the evaluator incident resolved',
    );
    t.is((await platformIncidents(/alert evaluator has not ticked/)).length, 1);
  },
);

test.serial('a failing projection and a stuck one each open an incident, resolved when they recover', async (t) => {
  const runner = app.platform.runner;
  const real = runner.status.bind(runner);
  // The embedded runner applies projections in a worker thread: a failure is injected into what it reports.
  let injected: ProjectionStatus[] = [
    { name: 'test_failing', version: 1, position: 7n, lag: 3, failing: 'read model write refused: disk full' },
    { name: 'test_stuck', version: 1, position: 9n, lag: 5 },
  ];
  runner.status = () => [...real(), ...injected];
  try {
    await checkUntil(async () => (await platformIncidents(/test_failing/)).length === 1, 'the failing projection');
    const [failed] = await platformIncidents(/test_failing/);
    t.is(failed.title, 'Projection test_failing is failing');
    t.regex(failed.detail, /disk full/);
    t.deepEqual(await platformIncidents(/test_stuck/), [], 'behind, but not yet for the bound');
    await clock.advance(5000);
    await waitFor(async () => (await platformIncidents(/test_stuck/)).length === 1, {
      timeoutMs: 10_000,
      message: 'the stuck projection',
    });
    t.regex((await platformIncidents(/test_stuck/))[0].detail, /5 events behind, no progress since/);

    injected = [
      { name: 'test_failing', version: 1, position: 10n, lag: 0 },
      { name: 'test_stuck', version: 1, position: 14n, lag: 0 },
    ];
    await checkUntil(
      async () =>
        (await platformIncidents(/test_failing|test_stuck/)).every((incident) => incident.status === 'resolved'),
      'both resolved',
    );
    t.is((await platformIncidents(/test_failing|test_stuck/)).length, 2);
  } finally {
    runner.status = real;
  }
});

test.serial('a delivery whose every attempt fails opens one platform incident for that cause', async (t) => {
  const tenant = app.newTenant();
  const { policyId, channelId } = await chatPolicy(app, tenant, 'Platform');
  failing.add(channelId);
  const subjects = app.platform.composition.alerting.subjectIncidents;
  const page = () =>
    subjects.open(
      { tenantId: tenant.tenantId, actor: 'system:test', correlationId: randomUUID() },
      {
        source: 'heartbeat',
        subject: `heartbeat:${randomUUID()}`,
        title: 'Nightly load did not check in',
        detail: null,
        severity: 'high',
        escalationPolicyId: policyId,
        envId: null,
        clusterId: null,
      },
    );
  const notified = async (incidentId: string) =>
    ((await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller: tenant })).body.data?.escalation
      ?.notified ?? []) as { ok: boolean }[];
  const deliveryIncidents = () => platformIncidents(new RegExp(`deliver to channel:${channelId}`));

  const first = await page();
  await waitFor(async () => (await notified(first.incidentId)).length === 1, { message: 'the failed delivery' });
  t.false((await notified(first.incidentId))[0]!.ok);
  await checkUntil(async () => (await deliveryIncidents()).length === 1, 'the delivery incident');
  const [incident] = await deliveryIncidents();
  t.like(incident, { source: 'platform', status: 'triggered', escalation_policy_id: operatorPolicy });
  t.regex(incident.title, /Every attempt to deliver to channel:\S+ \(chat\) failed/);
  t.regex(incident.detail, /HTTP 400 Bad Request/);

  // Another page through the same channel fails too: still the one incident.
  const second = await page();
  await waitFor(async () => (await notified(second.incidentId)).length === 1, { message: 'the second failure' });
  await clock.advance(1000);
  t.is((await deliveryIncidents()).length, 1);

  // The channel works again: the next delivery through it resolves the incident.
  failing.delete(channelId);
  const third = await page();
  await waitFor(async () => (await notified(third.incidentId))[0]?.ok === true, { message: 'a delivery' });
  await checkUntil(async () => (await deliveryIncidents())[0]?.status === 'resolved', 'the delivery incident resolved');
  t.is((await deliveryIncidents()).length, 1);
  t.regex(
    (await app.request('GET', '/metrics')).body as string,
    /platform_watch_incidents_opened_total\{cause="delivery"\} 1/,
  );
});

test.serial(
  "with the tenant's own platform-alerts policy, its failing deliveries page that policy in the tenant",
  async (t) => {
    const tenant = app.newTenant();
    const paging = await chatPolicy(app, tenant, 'Platform');
    const own = await chatPolicy(app, tenant, 'Platform');
    // Bad input changes nothing; a policy of the tenant is taken, with an ETag like every resource.
    const unknown = await app.request('PUT', '/api/v1/tenant/platform-alerts', {
      caller: tenant,
      body: { policy_id: randomUUID() },
    });
    t.is(unknown.status, 400);
    const set = await app.request('PUT', '/api/v1/tenant/platform-alerts', {
      caller: tenant,
      body: { policy_id: own.policyId },
    });
    t.is(set.status, 200, JSON.stringify(set.body));
    t.is(set.body.data.policy_id, own.policyId);
    const read = await app.request('GET', '/api/v1/tenant/platform-alerts', { caller: tenant });
    t.is(read.body.data.policy_id, own.policyId);
    t.truthy(read.headers.get('etag'));
    const stale = await app.request('PUT', '/api/v1/tenant/platform-alerts', {
      caller: tenant,
      body: { policy_id: null },
      headers: { 'if-match': '"7"' },
    });
    t.is(stale.status, 409);

    failing.add(paging.channelId);
    const incident = await app.platform.composition.alerting.subjectIncidents.open(
      { tenantId: tenant.tenantId, actor: 'system:test', correlationId: randomUUID() },
      {
        source: 'heartbeat',
        subject: `heartbeat:${randomUUID()}`,
        title: 'Nightly load did not check in',
        detail: null,
        severity: 'high',
        escalationPolicyId: paging.policyId,
        envId: null,
        clusterId: null,
      },
    );
    await waitFor(
      async () =>
        ((await app.request('GET', `/api/v1/incidents/${incident.incidentId}`, { caller: tenant })).body.data
          ?.escalation?.notified?.length ?? 0) === 1,
      { message: 'the failed delivery' },
    );
    const tenantPlatform = async () =>
      ((await app.request('GET', '/api/v1/incidents?source=platform', { caller: tenant })).body.data as any[]).filter(
        (candidate) => candidate.title.includes(paging.channelId),
      );
    await checkUntil(async () => (await tenantPlatform()).length === 1, "the tenant's platform incident");
    t.like((await tenantPlatform())[0], { status: 'triggered', escalation_policy_id: own.policyId });
    t.deepEqual(await platformIncidents(new RegExp(paging.channelId)), [], "nothing in the deployment's tenant");
    failing.delete(paging.channelId);
  },
);
