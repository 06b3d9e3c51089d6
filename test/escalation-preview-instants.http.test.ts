/**
 * The escalation preview against the escalation manager, one test driving both through the real
 * platform on a virtual clock: a group (one inactive member, one without a phone), a schedule whose
 * override starts between stage 1 and stage 2, a webhook channel at a loopback receiver and a
 * user without a chat address, in a three-stage policy. The preview for a trigger at T0 is asked
 * first (and changes nothing); then an incident triggers at T0 and the manager runs every stage.
 * What the preview named, (stage, person or channel, medium, delivery target) and each unreachable
 * target with its reason, must be exactly what the manager delivered and recorded, at the times
 * the preview gave.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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

const outboxFiles = () => (existsSync(join(app.dataDir, 'outbox')) ? readdirSync(join(app.dataDir, 'outbox')) : []);
const minutesAfterT0 = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

test('the preview for a trigger at T0 names exactly whom the escalation manager then pages, by what, where and when', async (t) => {
  const caller = app.newTenant();
  const dbas = await created(caller, '/api/v1/groups', { name: 'DBAs', permissions: {} });
  const user = (name: string, fields: Record<string, unknown> = {}) =>
    created(caller, '/users', { email: `${name}-${randomUUID()}@example.com`, name, ...fields });
  const alice = await user('alice', { group_ids: [dbas], phone: '+447700900123' });
  const bob = await user('bob', { group_ids: [dbas] });
  const frank = await user('frank', { group_ids: [dbas] });
  const carol = await user('carol');
  const dave = await user('dave');
  const erin = await user('erin');
  t.is((await app.request('PATCH', `/users/${bob}`, { caller, body: { is_active: false } })).status, 200);
  const rota = await created(caller, '/schedules', {
    name: 'rota',
    timezone: 'UTC',
    layers: [{ user_ids: [carol], rotation_type: 'daily', start_time: '2026-04-01T00:00:00Z' }],
  });
  // Dave covers the rota from 5 minutes after the trigger: stage 1 reaches carol, stage 2 dave.
  t.is(
    (
      await app.request('POST', `/schedules/${rota}/overrides`, {
        caller,
        body: { user_id: dave, start: minutesAfterT0(5), end: minutesAfterT0(120) },
      })
    ).status,
    201,
  );
  const hook = await created(caller, '/notification-channels', {
    name: 'ops hook',
    type: 'webhook',
    config: { url: `${receiver.url}/ops`, method: 'POST', headers: {} },
  });
  const body = {
    name: 'three stages',
    stages: [
      {
        stage_order: 1,
        delay_minutes: 0,
        targets: [
          { type: 'group', id: dbas, channels: ['email', 'sms'] },
          { type: 'schedule', id: rota, channels: ['email'] },
        ],
      },
      {
        stage_order: 2,
        delay_minutes: 10,
        targets: [
          { type: 'schedule', id: rota, channels: ['email'] },
          { type: 'channel', id: hook },
        ],
      },
      { stage_order: 3, delay_minutes: 5, targets: [{ type: 'user', id: erin, channels: ['email', 'chat'] }] },
    ],
  };
  const policy = await created(caller, '/api/v1/escalation-policies', body);

  // The preview, saved and unsaved: the same answer, and nothing appended or sent.
  const head = await app.platform.eventStore.headPosition();
  const outboxBefore = outboxFiles();
  const saved = await app.request(
    'GET',
    `/api/v1/escalation-policies/${policy}/preview?at=${encodeURIComponent(new Date(T0).toISOString())}`,
    { caller },
  );
  t.is(saved.status, 200, JSON.stringify(saved.body));
  const unsaved = await app.request('POST', '/api/v1/escalation-policies/preview', { caller, body });
  t.is(unsaved.status, 200, JSON.stringify(unsaved.body));
  t.deepEqual(
    unsaved.body.data.stages,
    saved.body.data.stages,
    'the unsaved body previews as the saved policy (at defaults to now, T0)',
  );
  t.is(await app.platform.eventStore.headPosition(), head, 'the preview appended nothing');
  t.is(receiver.requests.length, 0, 'the preview called no receiver');
  t.deepEqual(outboxFiles(), outboxBefore, 'the preview wrote no email or sms (the outbox holds only the invitations)');

  type PreviewStage = { stage_order: number; fires_at: string; recipients: any[]; unreachable: any[] };
  const preview = saved.body.data.stages as PreviewStage[];
  t.deepEqual(
    preview.map((s) => [s.stage_order, s.fires_at]),
    [
      [1, minutesAfterT0(0)],
      [2, minutesAfterT0(10)],
      [3, minutesAfterT0(15)],
    ],
  );
  const rotaReasons = preview.flatMap((s) =>
    s.recipients.filter((r) => r.via.type === 'schedule').map((r) => [s.stage_order, r.person.name, r.why]),
  );
  t.deepEqual(rotaReasons, [
    [1, 'carol', 'on call for schedule rota via layer 0'],
    [
      2,
      'dave',
      `on call for schedule rota via override ${rotaOverrideId(await app.request('GET', `/schedules/${rota}`, { caller }))}`,
    ],
  ]);

  const named = preview
    .flatMap((s) => [
      ...s.recipients.map(
        (r) =>
          `${s.stage_order} ${r.person ? `user:${r.person.id}` : `channel:${r.channel.id}`} ${r.medium} ${r.delivery_target}`,
      ),
      ...s.unreachable.map(
        (u) => `${s.stage_order} unreachable ${u.via.type}:${u.via.id} ${u.medium ?? '-'} ${u.reason}`,
      ),
    ])
    .sort();

  // The real escalation: an incident at T0, every stage run by the manager in virtual time.
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 99, duration_seconds: 3600 },
  });
  const rule = await created(caller, '/api/v1/alert-rules', {
    name: 'preview rule',
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
  const outcomes = async () =>
    (await events()).filter((e) => e.type === 'NotificationDelivered' || e.type === 'NotificationFailed');
  const expectedOutcomes = async (stage: number, count: number) =>
    waitFor(async () => (await outcomes()).filter((e) => e.data.stageOrder === stage).length === count, {
      timeoutMs: 15_000,
      message: `stage ${stage} outcomes`,
    });
  const runUntil = async (minutes: number) => {
    clock.scheduler.maxFrames = minutes * 60_000;
    clock.scheduler.flush();
    clock.scheduler.maxFrames = Infinity;
  };
  const perStage = preview.map((s) => s.recipients.length + s.unreachable.length);
  await expectedOutcomes(1, perStage[0]!);
  await runUntil(10);
  await expectedOutcomes(2, perStage[1]!);
  await runUntil(15);
  await expectedOutcomes(3, perStage[2]!);

  const sent = (await outcomes())
    .map(({ type, data }) =>
      type === 'NotificationFailed' && data.error.kind === 'unreachable'
        ? `${data.stageOrder} unreachable ${data.via.type}:${data.via.id} ${data.medium ?? '-'} ${data.error.message}`
        : `${data.stageOrder} ${data.recipientKey} ${data.medium} ${data.target}`,
    )
    .sort();
  t.deepEqual(sent, named, 'the preview named what the manager delivered');
  t.true((await outcomes()).filter((e) => e.type === 'NotificationDelivered').length >= 5, 'real deliveries happened');
  t.deepEqual(
    receiver.requests.map((r) => r.path),
    ['/ops'],
    'the webhook was called once, by stage 2',
  );

  const fired = (await events())
    .filter((e) => e.type === 'EscalationStageFired')
    .map((e) => [e.data.stageOrder, e.data.firedAt]);
  t.deepEqual(
    fired,
    preview.map((s) => [s.stage_order, s.fires_at]),
    'the stages fired when the preview said',
  );
  // The cases the comparison must cover, so it cannot pass on an empty preview.
  t.true(named.some((line) => line.includes(`user:${alice} sms`)));
  t.true(
    named.some((line) => line.includes(`unreachable group:${dbas} sms the user has no phone number`)),
    'frank has no phone',
  );
  t.true(named.some((line) => line.startsWith(`1 user:${frank} email`)));
  t.true(named.some((line) => line.startsWith(`3 unreachable user:${erin} chat`)));
  t.false(
    named.some((line) => line.includes(bob)),
    'bob is inactive: not a member the group pages',
  );
});

function rotaOverrideId(schedule: { body: { data: { overrides: { id: string }[] } } }): string {
  return schedule.body.data.overrides[0]!.id;
}
