/**
 * Paging end to end through the real platform: a webhook channel pointing at a local receiver,
 * a two-stage policy with stage 2 one minute later, a rule that triggers. The escalation manager's
 * timers run on a virtual clock (the platform's injected time source); deliveries go through the
 * real adapter and the guarded client (private networks allowed for loopback).
 */
import test from 'ava';
import { verifyWebhookSignature } from '../src/gateways/notify/webhook-signature.js';
import { T0, VirtualClock } from './support/escalation-harness.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startPagerStandIn, type PagerStandIn } from './support/notify-receivers/pager-events-standin.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let receiver: HttpReceiver;
let pagerService: PagerStandIn;
const clock = new VirtualClock();

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  pagerService = await startPagerStandIn();
  app = await startTestApp({
    now: clock.now,
    scheduler: clock.scheduler,
    env: {
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      PAGER_EVENTS_URL: pagerService.eventsUrl,
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
  await pagerService?.stop();
});

/** Moves the virtual clock to `ms` after T0, firing the manager's timers on the way. */
function advanceTo(ms: number) {
  const target = ms;
  const due = clock.scheduler.actions.filter((action) => action.delay <= target).length;
  clock.scheduler.maxFrames = target;
  clock.scheduler.flush();
  if (clock.scheduler.frame < target) clock.scheduler.frame = target;
  clock.scheduler.maxFrames = Infinity;
  return due;
}

/** Stage 1 pages a webhook (and `alsoInStage1`), stage 2 another webhook a minute later. */
async function pagingSetup(caller: Caller, name: string, alsoInStage1: { type: 'channel'; id: string }[] = []) {
  const channel = async (path: string) => {
    const created = await app.request('POST', '/notification-channels', {
      caller,
      body: {
        name: `${name} ${path}`,
        type: 'webhook',
        config: { url: `${receiver.url}/${name}/${path}`, method: 'POST', headers: {} },
      },
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return created.body.data as { id: string; signing_secret: string };
  };
  const [first, second] = [await channel('stage1'), await channel('stage2')];
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: `${name} policy`,
      stages: [
        { stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: first.id }, ...alsoInStage1] },
        { stage_order: 2, delay_minutes: 1, targets: [{ type: 'channel', id: second.id }] },
      ],
    },
  });
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 99, duration_seconds: 3600 },
  });
  const rule = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: {
      name: `${name} rule`,
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: policy.body.data.id,
    },
  });
  let incidentId = '';
  await waitFor(
    async () => {
      incidentId =
        (await app.request('GET', `/api/v1/incidents?rule_id=${rule.body.data.id}`, { caller })).body.data?.[0]?.id ??
        '';
      return incidentId !== '';
    },
    { timeoutMs: 15_000, message: 'the incident' },
  );
  return { first, second, incidentId };
}

const requestsTo = (name: string, path: string) => receiver.requests.filter((r) => r.path === `/${name}/${path}`);
const metricValue = async (name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec((await app.request('GET', '/metrics')).body)?.[1] ?? NaN);

test.serial(
  'stage 1 pages at once, stage 2 one minute later, signed; the incident events tell the story in order',
  async (t) => {
    const caller = app.newTenant();
    const { first, second, incidentId } = await pagingSetup(caller, 'story');
    await waitFor(() => requestsTo('story', 'stage1').length === 1, {
      timeoutMs: 10_000,
      message: 'stage 1 delivered',
    });
    const delivered = requestsTo('story', 'stage1')[0]!;
    const signature = verifyWebhookSignature(
      first.signing_secret,
      String(delivered.headers['x-signature']),
      delivered.body,
      Math.floor(Date.now() / 1000),
      300,
    );
    t.true(signature.valid, 'signed with the secret the channel was created with');
    t.regex(String(delivered.headers['idempotency-key']), new RegExp(incidentId));

    const eventsOf = async () =>
      (await app.request('GET', `/api/v1/incidents/${incidentId}/events`, { caller })).body.data as {
        type: string;
        data: any;
      }[];
    const firedStage = async (order: number) =>
      (await eventsOf()).find((e) => e.type === 'EscalationStageFired' && e.data.stageOrder === order)?.data;
    const stage1 = await firedStage(1);
    const stage2Due = Date.parse(stage1.firedAt) + 60_000;
    await waitFor(
      async () =>
        (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data.escalation.notified
          .length === 1,
      { timeoutMs: 5000, message: 'the read model has stage 1 delivered' },
    );

    // While stage 2 waits: the read model, the pending list and the metrics say so.
    const waiting = (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data;
    t.is(waiting.next_escalation_at, new Date(stage2Due).toISOString());
    t.like(waiting.escalation, { current_stage: { stage_order: 1, cycle: 0, fired_at: stage1.firedAt } });
    t.deepEqual(waiting.escalation.notified, [
      {
        kind: 'stage',
        stage_order: 1,
        cycle: 0,
        recipient: `channel:${first.id}`,
        medium: 'webhook',
        target: `channel:${first.id}`,
        ok: true,
        at: stage1.firedAt,
        error: null,
      },
    ]);
    const pending = (await app.request('GET', '/api/v1/escalations', { caller })).body.data;
    t.deepEqual(pending, [
      {
        incident_id: incidentId,
        title: 'story rule',
        rule_name: 'story rule',
        severity: 'high',
        policy_name: 'story policy',
        next_stage: 2,
        cycle: 0,
        next_due_at: new Date(stage2Due).toISOString(),
        last_fired_stage: { stage_order: 1, cycle: 0, fired_at: stage1.firedAt },
      },
    ]);
    await waitFor(async () => (await metricValue('escalation_pending')) === 1, {
      timeoutMs: 5000,
      message: 'the manager waiting for stage 2',
    });
    const firedBefore = await metricValue('escalation_stages_fired_total');
    const latenessBefore = await metricValue('escalation_stage_lateness_seconds_count');

    advanceTo(stage2Due - T0 - 1000);
    await app.platform.escalation.idle();
    t.is(requestsTo('story', 'stage2').length, 0, 'not a second before its minute');
    t.is(await firedStage(2), undefined);
    advanceTo(stage2Due - T0);
    await waitFor(() => requestsTo('story', 'stage2').length === 1, {
      timeoutMs: 10_000,
      message: 'stage 2 delivered after its delay',
    });
    await waitFor(async () => (await eventsOf()).filter((e) => e.type === 'NotificationDelivered').length === 2, {
      timeoutMs: 5000,
      message: 'stage 2 outcome recorded',
    });
    t.like(
      await firedStage(2),
      { cycle: 0, dueAt: new Date(stage2Due).toISOString(), firedAt: new Date(stage2Due).toISOString() },
      'on the minute',
    );
    t.is(await metricValue('escalation_stages_fired_total'), firedBefore + 1);
    t.is(await metricValue('escalation_stage_lateness_seconds_count'), latenessBefore + 1);

    const events = await eventsOf();
    t.deepEqual(
      events.map((e) => e.type),
      [
        'IncidentTriggered',
        'EscalationStarted',
        'EscalationStageFired',
        'NotificationDelivered',
        'EscalationStageFired',
        'NotificationDelivered',
      ],
    );
    t.deepEqual(
      events.filter((e) => e.type === 'EscalationStageFired').map((e) => e.data.stageOrder),
      [1, 2],
    );
    const incident = (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data;
    t.like(incident.escalation, {
      status: 'running',
      policy_name: 'story policy',
      current_stage: { stage_order: 2, cycle: 0 },
    });
    t.deepEqual(
      incident.escalation.notified.map((n: any) => [n.stage_order, n.recipient, n.ok]),
      [
        [1, `channel:${first.id}`, true],
        [2, `channel:${second.id}`, true],
      ],
    );
    t.is(incident.next_escalation_at, null, 'no repeat: nothing further is due');
    t.deepEqual((await app.request('GET', '/api/v1/escalations', { caller })).body.data, []);
    // ?as_of= tells the same story at any moment: a second before stage 2, only stage 1.
    const before = (
      await app.request('GET', `/api/v1/incidents/${incidentId}?as_of=${new Date(stage2Due - 1000).toISOString()}`, {
        caller,
      })
    ).body.data;
    t.like(before.escalation, { current_stage: { stage_order: 1, cycle: 0 } });
    t.is(before.escalation.notified.length, 1);
  },
);

test.serial('an acknowledgement before stage 2 stops the escalation: nothing more is sent', async (t) => {
  const caller = app.newTenant();
  const { incidentId } = await pagingSetup(caller, 'acked');
  await waitFor(() => requestsTo('acked', 'stage1').length === 1, { timeoutMs: 10_000, message: 'stage 1 delivered' });
  // The read models follow the log a moment behind the manager's appends.
  const pendingNow = async () =>
    ((await app.request('GET', '/api/v1/escalations', { caller })).body.data as any[]).map((p) => [
      p.incident_id,
      p.next_stage,
    ]);
  await waitFor(async () => (await pendingNow()).some(([, stage]) => stage === 2), {
    timeoutMs: 5000,
    message: 'stage 2 pending',
  });
  t.deepEqual(await pendingNow(), [[incidentId, 2]]);
  t.is((await app.request('POST', `/api/v1/incidents/${incidentId}/acknowledge`, { caller, body: {} })).status, 200);
  await waitFor(async () => (await app.request('GET', '/api/v1/escalations', { caller })).body.data.length === 0, {
    timeoutMs: 5000,
    message: 'no longer pending',
  });
  advanceTo(10 * 60_000 + clock.scheduler.frame);
  await app.request('GET', '/health');
  t.is(requestsTo('acked', 'stage2').length, 0);
  const incident = (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data;
  t.like(incident, {
    status: 'acknowledged',
    next_escalation_at: null,
    escalation: { status: 'cancelled', cancel_reason: 'acknowledged', current_stage: { stage_order: 1 } },
  });
  const types = (await app.request('GET', `/api/v1/incidents/${incidentId}/events`, { caller })).body.data.map(
    (e: any) => e.type,
  );
  t.deepEqual(
    types.filter((type: string) => type === 'EscalationStageFired'),
    ['EscalationStageFired'],
  );
});

test.serial(
  'a resolution gives everyone paged so far the all-clear; the pager service hears acknowledge and resolve on the dedup key it was triggered with',
  async (t) => {
    const caller = app.newTenant();
    const pager = (
      await app.request('POST', '/notification-channels', {
        caller,
        body: {
          name: 'pager',
          type: 'pager',
          config: {
            integration_key: 'R0UT1NGKEY0000000000000000000042',
            severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
          },
        },
      })
    ).body.data as { id: string };
    const { incidentId } = await pagingSetup(caller, 'allclear', [{ type: 'channel', id: pager.id }]);
    const pagerEvents = () =>
      pagerService.events.filter(
        (e) => e.dedup_key === incidentId || (e.payload as any)?.custom_details?.incident_id === incidentId,
      );
    await waitFor(() => requestsTo('allclear', 'stage1').length === 1 && pagerEvents().length === 1, {
      timeoutMs: 10_000,
      message: 'stage 1 delivered',
    });

    t.is((await app.request('POST', `/api/v1/incidents/${incidentId}/acknowledge`, { caller, body: {} })).status, 200);
    await waitFor(() => pagerEvents().length === 2, {
      timeoutMs: 10_000,
      message: 'the pager told of the acknowledgement',
    });
    t.is(
      (await app.request('POST', `/api/v1/incidents/${incidentId}/resolve`, { caller, body: { note: 'drained' } }))
        .status,
      200,
    );
    await waitFor(() => pagerEvents().length === 3 && requestsTo('allclear', 'stage1').length === 2, {
      timeoutMs: 10_000,
      message: 'the all-clear',
    });
    advanceTo(10 * 60_000 + clock.scheduler.frame);
    await app.platform.escalation.idle();

    t.deepEqual(
      pagerEvents().map((e) => [e.event_action, e.dedup_key]),
      [
        ['trigger', incidentId],
        ['acknowledge', incidentId],
        ['resolve', incidentId],
      ],
    );
    t.deepEqual(
      requestsTo('allclear', 'stage1').map((r) => JSON.parse(r.body).incident.status),
      ['triggered', 'resolved'],
      'the webhook is not told of the acknowledgement',
    );
    t.is(requestsTo('allclear', 'stage2').length, 0, 'stage 2 never fired, so nobody there is told anything');
    const incident = (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data;
    t.like(
      incident,
      { status: 'resolved', escalation: { status: 'cancelled', cancel_reason: 'acknowledged' } },
      'the acknowledgement cancelled it; the resolution came after',
    );
    const events = (await app.request('GET', `/api/v1/incidents/${incidentId}/events`, { caller })).body.data as {
      type: string;
      data: any;
    }[];
    // One outcome per delivery, in the order of the rounds (within a round they go out together).
    t.deepEqual(
      events
        .filter((e) => e.type === 'NotificationDelivered')
        .map((e) => `${e.data.kind} ${e.data.medium}`)
        .sort(),
      ['acknowledgement pager', 'resolution pager', 'resolution webhook', 'stage pager', 'stage webhook'],
    );
    t.deepEqual(
      events.map((e) => e.type).filter((type) => type !== 'NotificationDelivered'),
      ['IncidentTriggered', 'EscalationStarted', 'EscalationStageFired', 'IncidentAcknowledged', 'IncidentResolved'],
    );
  },
);

test.serial(
  'a channel test sends a signed sample through the real adapter and records it; a metadata address is refused with the reason',
  async (t) => {
    const caller = app.newTenant();
    const created = (
      await app.request('POST', '/notification-channels', {
        caller,
        body: {
          name: 'hook',
          type: 'webhook',
          config: { url: `${receiver.url}/tested`, method: 'PUT', headers: { Authorization: 'Bearer s3cr3t-value' } },
        },
      })
    ).body.data;
    const tested = await app.request('POST', `/notification-channels/${created.id}/test`, { caller, body: {} });
    t.is(tested.status, 200);
    t.like(tested.body, { success: true, status_code: 204, error: null });
    const request = receiver.requests.find((r) => r.path === '/tested')!;
    t.is(request.method, 'PUT');
    t.is(request.headers.authorization, 'Bearer s3cr3t-value');
    t.true(
      verifyWebhookSignature(
        created.signing_secret,
        String(request.headers['x-signature']),
        request.body,
        Math.floor(Date.now() / 1000),
        300,
      ).valid,
    );
    const recorded = await app.platform.eventStore.readStream(`channel-${created.id}`);
    t.deepEqual(
      recorded.map((e) => e.type),
      ['ChannelCreated', 'ChannelSigningSecretSet', 'ChannelTestSent'],
    );
    t.is(JSON.stringify(recorded.at(-1)!.data).includes('s3cr3t'), false, 'the test record holds no secret');

    const metadata = (
      await app.request('POST', '/notification-channels', {
        caller,
        body: {
          name: 'meta',
          type: 'webhook',
          config: { url: 'http://169.254.169.254/latest/meta-data', method: 'POST', headers: {} },
        },
      })
    ).body.data;
    const refused = await app.request('POST', `/notification-channels/${metadata.id}/test`, { caller, body: {} });
    t.is(refused.status, 200);
    t.false(refused.body.success);
    t.is(refused.body.error.kind, 'refused_address');
    t.regex(refused.body.error.message, /metadata/i);

    const rotated = await app.request('POST', `/notification-channels/${created.id}/rotate-secret`, {
      caller,
      body: {},
    });
    t.is(rotated.status, 200);
    t.not(rotated.body.data.signing_secret, created.signing_secret);
    t.is(
      (await app.request('GET', `/notification-channels/${created.id}`, { caller })).body.data.signing_secret,
      undefined,
      'never shown again',
    );
  },
);
