/**
 * Stage targets resolve against the real read models at the moment a stage fires (SPEC.md: target
 * resolution happens at notification time), through the real platform: a group's inactive members
 * are skipped, a schedule pages whoever is on call then (an override added between stages moves
 * stage 2 to someone else), and nobody on call, a deleted schedule and a deleted channel are
 * failures with the reason. The policy stays as it was at trigger time, so edits and deletions made
 * mid-escalation reach the in-flight plan only through the targets it names. Timers run on a
 * virtual clock.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { T0, VirtualClock } from './support/escalation-harness.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let receiver: HttpReceiver;
const clock = new VirtualClock();

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({
    now: clock.now,
    scheduler: clock.scheduler,
    env: { ALERT_EVALUATION_INTERVAL_SECONDS: '1', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

async function created(caller: Caller, path: string, body: unknown): Promise<string> {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

const schedule = (caller: Caller, name: string, userId: string, startTime: string) =>
  created(caller, '/schedules', {
    name,
    timezone: 'UTC',
    layers: [{ user_ids: [userId], rotation_type: 'daily', start_time: startTime }],
  });

test('targets resolve when each stage fires: inactive group members skipped, on-call changing between stages, nobody on call, a deleted schedule and channel', async (t) => {
  const caller = app.newTenant();
  const group = await created(caller, '/api/v1/groups', { name: 'DBAs', permissions: {} });
  const user = (name: string, groupIds: string[] = []) =>
    created(caller, '/users', { email: `${name}-${randomUUID()}@example.com`, name, group_ids: groupIds });
  const [alice, bob, carol, dave, erin] = [
    await user('alice', [group]),
    await user('bob', [group]),
    await user('carol'),
    await user('dave'),
    await user('erin'),
  ];
  t.is((await app.request('PATCH', `/users/${bob}`, { caller, body: { is_active: false } })).status, 200);
  const rota = await schedule(caller, 'rota', carol, '2026-04-01T00:00:00Z');
  const future = await schedule(caller, 'starts next year', erin, '2027-01-01T00:00:00Z');
  const doomedSchedule = await schedule(caller, 'to be deleted', erin, '2026-04-01T00:00:00Z');
  const doomedChannel = await created(caller, '/notification-channels', {
    name: 'to be deleted',
    type: 'webhook',
    config: { url: `${receiver.url}/doomed`, method: 'POST', headers: {} },
  });
  const stage2Targets = [{ type: 'schedule', id: rota, channels: ['email'] }];
  const policyBody = (extraInStage2: unknown[]) => ({
    name: 'targets',
    stages: [
      {
        stage_order: 1,
        delay_minutes: 0,
        targets: [
          { type: 'group', id: group, channels: ['email'] },
          { type: 'schedule', id: rota, channels: ['email'] },
          { type: 'schedule', id: future, channels: ['email'] },
        ],
      },
      { stage_order: 2, delay_minutes: 1, targets: [...stage2Targets, ...extraInStage2] },
    ],
  });
  const policy = await created(
    caller,
    '/api/v1/escalation-policies',
    policyBody([
      { type: 'schedule', id: doomedSchedule, channels: ['email'] },
      { type: 'channel', id: doomedChannel },
    ]),
  );
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 99, duration_seconds: 3600 },
  });
  const rule = await created(caller, '/api/v1/alert-rules', {
    name: 'targets rule',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy,
  });

  let incidentId = '';
  await waitFor(
    async () =>
      (incidentId =
        (await app.request('GET', `/api/v1/incidents?rule_id=${rule}`, { caller })).body.data?.[0]?.id ?? '') !== '',
    { timeoutMs: 15_000, message: 'the incident' },
  );
  const events = async () =>
    (await app.request('GET', `/api/v1/incidents/${incidentId}/events`, { caller })).body.data as {
      type: string;
      data: any;
    }[];
  const outcomes = async (stage: number) =>
    (await events())
      .filter(
        (e) => (e.type === 'NotificationDelivered' || e.type === 'NotificationFailed') && e.data.stageOrder === stage,
      )
      .map((e) =>
        e.type === 'NotificationDelivered'
          ? `${e.data.recipientKey} ${e.data.medium}`
          : `failed ${e.data.via.type}:${e.data.via.id} ${e.data.error.message}`,
      );
  const byName = (text: string) =>
    text
      .replace(alice, 'alice')
      .replace(bob, 'bob')
      .replace(carol, 'carol')
      .replace(dave, 'dave')
      .replace(erin, 'erin')
      .replace(future, 'future')
      .replace(doomedSchedule, 'doomed-schedule')
      .replace(doomedChannel, 'doomed-channel');
  await waitFor(async () => (await outcomes(1)).length === 3, { timeoutMs: 10_000, message: 'stage 1 outcomes' });
  t.deepEqual(
    (await outcomes(1)).map(byName).sort(),
    ['failed schedule:future nobody is on call', 'user:alice email', 'user:carol email'],
    'bob is inactive: skipped',
  );

  // Between the stages: dave takes over the rota, and the doomed targets are taken out of the policy and deleted.
  const now = clock.now().getTime();
  t.is(
    (
      await app.request('POST', `/schedules/${rota}/overrides`, {
        caller,
        body: { user_id: dave, start: new Date(now).toISOString(), end: new Date(now + 3_600_000).toISOString() },
      })
    ).status,
    201,
  );
  t.is(
    (await app.request('PUT', `/api/v1/escalation-policies/${policy}`, { caller, body: policyBody([]) })).status,
    200,
  );
  t.is((await app.request('DELETE', `/schedules/${doomedSchedule}`, { caller })).status, 200);
  t.is((await app.request('DELETE', `/notification-channels/${doomedChannel}`, { caller })).status, 200);

  const stage1 = (await events()).find((e) => e.type === 'EscalationStageFired')!.data;
  const due = Date.parse(stage1.firedAt) + 60_000 - T0;
  clock.scheduler.maxFrames = due;
  clock.scheduler.flush();
  clock.scheduler.maxFrames = Infinity;
  await waitFor(async () => (await outcomes(2)).length === 3, { timeoutMs: 10_000, message: 'stage 2 outcomes' });
  t.deepEqual((await outcomes(2)).map(byName).sort(), [
    'failed channel:doomed-channel the notification channel no longer exists',
    'failed schedule:doomed-schedule the schedule no longer exists',
    'user:dave email',
  ]);
  t.is(receiver.requests.length, 0, 'the deleted channel was not called');
});
