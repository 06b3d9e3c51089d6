/** The escalation manager in virtual time (test/support/escalation-harness.ts): SPEC.md Escalation timing. */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { deliveryKey, type StageSnapshot } from '../src/events/escalation.js';
import { createHarness, minutes, T0, user, VirtualClock } from './support/escalation-harness.js';

const alice = '00000000-0000-4000-8000-00000000a11c';
const bob = '00000000-0000-4000-8000-000000000b0b';
const stage = (
  stageOrder: number,
  delayMinutes: number,
  userId: string,
  channels: ('email' | 'sms' | 'chat')[] = ['email'],
): StageSnapshot => ({ stageOrder, delayMinutes, targets: [{ type: 'user', id: userId, channels }] });
const MIN = 60_000;

function twoStages(repeatIntervalMinutes = 0) {
  const h = createHarness({ stages: [stage(1, 0, alice), stage(2, 15, bob)], repeatIntervalMinutes });
  h.users.set(alice, user(alice));
  h.users.set(bob, user(bob));
  return h;
}

test('stage 1 fires at trigger, stage 2 its delay later, and the cycle repeats after the repeat interval', async (t) => {
  const h = twoStages(30);
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(14));
  t.deepEqual(
    h.delivered.map((d) => [d.at, d.to]),
    [[0, `${alice.slice(0, 8)}@example.com`]],
  );
  await h.advanceTo(minutes(61));
  t.deepEqual(await h.firedStages(id), [
    { stage: 1, cycle: 0, at: 0 },
    { stage: 2, cycle: 0, at: 15 * MIN },
    { stage: 1, cycle: 1, at: 45 * MIN },
    { stage: 2, cycle: 1, at: 60 * MIN },
  ]);
  t.is(h.delivered.length, 4);
  t.deepEqual(
    h.delivered.map((d) => d.key),
    [
      deliveryKey(id, 'stage', 1, 0, `user:${alice}`, 'email'),
      deliveryKey(id, 'stage', 2, 0, `user:${bob}`, 'email'),
      deliveryKey(id, 'stage', 1, 1, `user:${alice}`, 'email'),
      deliveryKey(id, 'stage', 2, 1, `user:${bob}`, 'email'),
    ],
  );
  await h.close();
});

test('without a repeat interval the escalation ends after the last stage', async (t) => {
  const h = twoStages(0);
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(600));
  t.deepEqual(
    (await h.firedStages(id)).map((f) => f.stage),
    [1, 2],
  );
  await h.close();
});

test('an acknowledgement mid-delay cancels the escalation: nothing more is sent', async (t) => {
  const h = twoStages(30);
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(5));
  await h.acknowledge(id, alice);
  h.wakeAll(id);
  await h.advanceTo(minutes(300));
  t.deepEqual(
    (await h.firedStages(id)).map((f) => f.stage),
    [1],
  );
  t.is(h.delivered.length, 1);
  await h.close();
});

test('a resolution mid-delay cancels the escalation and gives everyone paged the all-clear, once', async (t) => {
  const h = twoStages(30);
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(20));
  await h.append(id, 'IncidentResolved', {
    incidentId: id,
    by: 'system:evaluator',
    at: h.clock.now().toISOString(),
    reason: 'auto',
    note: null,
    value: 3,
  });
  h.wakeAll(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(300));
  t.deepEqual(
    h.delivered.map((d) => [d.status, d.to.slice(0, 8)]),
    [
      ['triggered', alice.slice(0, 8)],
      ['triggered', bob.slice(0, 8)],
      ['resolved', alice.slice(0, 8)],
      ['resolved', bob.slice(0, 8)],
    ],
  );
  await h.close();
});

test('an acknowledgement racing a due stage wins: the stage append fails on the revision and nothing is sent', async (t) => {
  let ackDuringResolution: (() => Promise<void>) | undefined;
  const h = createHarness({
    stages: [stage(1, 0, alice), stage(2, 15, bob)],
    directory: {
      user: async (_tenant, userId) => {
        if (userId === bob && ackDuringResolution) {
          const ack = ackDuringResolution;
          ackDuringResolution = undefined;
          await ack();
        }
        return user(userId);
      },
    },
  });
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(1));
  ackDuringResolution = async () => {
    await h.acknowledge(id, alice);
  };
  await h.advanceTo(minutes(20));
  t.deepEqual(
    (await h.firedStages(id)).map((f) => f.stage),
    [1],
  );
  t.deepEqual(
    h.delivered.map((d) => d.to.slice(0, 8)),
    [alice.slice(0, 8)],
  );
  await h.close();
});

test('a restart mid-delay rebuilds the timer from the log: stage 2 fires on time, once', async (t) => {
  const h = twoStages(0);
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(5));
  await h.managers[0]!.stop();
  h.managers.splice(0, 1);
  h.addManager().wake(id);
  await h.advanceTo(minutes(60));
  t.deepEqual(await h.firedStages(id), [
    { stage: 1, cycle: 0, at: 0 },
    { stage: 2, cycle: 0, at: 15 * MIN },
  ]);
  await h.close();
});

test('after a long outage an overdue stage fires once, and the next is due its delay after that (no burst of missed cycles)', async (t) => {
  const clock = new VirtualClock();
  const h = createHarness({ stages: [stage(1, 0, alice), stage(2, 15, bob)], repeatIntervalMinutes: 30, clock });
  h.users.set(alice, user(alice));
  h.users.set(bob, user(bob));
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(1));
  await h.managers[0]!.stop();
  h.managers.splice(0, 1);
  clock.scheduler.frame = 10 * 60 * MIN; // ten hours down
  h.addManager().wake(id);
  await h.advanceTo(minutes(600));
  t.deepEqual(await h.firedStages(id), [
    { stage: 1, cycle: 0, at: 0 },
    { stage: 2, cycle: 0, at: 600 * MIN },
  ]);
  await h.advanceTo(minutes(630));
  t.deepEqual((await h.firedStages(id)).at(-1), { stage: 1, cycle: 1, at: 630 * MIN });
  await h.close();
});

test('two managers on one event store fire each stage exactly once', async (t) => {
  const h = twoStages(30);
  h.addManager();
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(10));
  h.wakeAll(id);
  await h.advanceTo(minutes(100));
  const fired = await h.firedStages(id);
  t.deepEqual(
    fired.map((f) => `${f.stage}/${f.cycle}`),
    ['1/0', '2/0', '1/1', '2/1', '1/2'],
  ); // 2/2 is due at 105
  t.is(h.delivered.length, fired.length);
  await h.close();
});

test('a crash between firing a stage and delivering it: the deliveries are made again with the same keys, one lease (the default 10 s) after it fired', async (t) => {
  const h = twoStages(0);
  const id = randomUUID();
  await h.trigger(id);
  await h.append(id, 'EscalationStarted', {
    incidentId: id,
    policyId: '00000000-0000-4000-8000-000000000011',
    policyName: 'Primary',
    stages: [stage(1, 0, alice)],
    repeatIntervalMinutes: 0,
    startedAt: new Date(T0).toISOString(),
  });
  await h.append(id, 'EscalationStageFired', {
    incidentId: id,
    stageOrder: 1,
    cycle: 0,
    dueAt: new Date(T0).toISOString(),
    firedAt: new Date(T0).toISOString(),
    recipients: [{ key: `user:${alice}`, via: { type: 'user', id: alice }, medium: 'email', unreachable: null }],
  });
  h.wakeAll(id);
  await h.advanceTo(minutes(1));
  t.deepEqual(
    h.delivered.map((d) => [d.at, d.key]),
    [[10_000, deliveryKey(id, 'stage', 1, 0, `user:${alice}`, 'email')]],
  );
  t.deepEqual((await h.firedStages(id)).length, 1);
  await h.close();
});

test('targets resolve when the stage fires: on-call changing between stages, inactive group members skipped, nobody on call and a deleted channel recorded as failures', async (t) => {
  const schedule = '00000000-0000-4000-8000-00000000005c';
  const group = '00000000-0000-4000-8000-000000000091';
  const channel = '00000000-0000-4000-8000-0000000000c1';
  const h = createHarness({
    stages: [
      {
        stageOrder: 1,
        delayMinutes: 0,
        targets: [
          { type: 'schedule', id: schedule, channels: ['email'] },
          { type: 'group', id: group, channels: ['email', 'sms'] },
        ],
      },
      {
        stageOrder: 2,
        delayMinutes: 15,
        targets: [
          { type: 'schedule', id: schedule, channels: ['email'] },
          { type: 'channel', id: channel, channels: [] },
        ],
      },
      { stageOrder: 3, delayMinutes: 15, targets: [{ type: 'schedule', id: schedule, channels: ['email'] }] },
    ],
    directory: {
      onCall: async (_tenant, _id, at) =>
        at.getTime() < minutes(10) ? user(alice) : at.getTime() < minutes(20) ? user(bob) : null,
      activeGroupMembers: async () => [user(bob, { phone: '+447700900123' })],
    },
  });
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(40));
  t.deepEqual(
    h.delivered.map((d) => [d.at / MIN, d.medium, d.to.slice(0, 8)]),
    [
      [0, 'email', alice.slice(0, 8)],
      [0, 'email', bob.slice(0, 8)],
      [0, 'sms', '+4477009'],
      [15, 'email', bob.slice(0, 8)],
    ],
  );
  const events = await h.eventStore.readStream(`incident-${id}`);
  const failures = events
    .filter((e) => e.type === 'NotificationFailed')
    .map((e) => (e.data.error as { message: string }).message);
  t.deepEqual(failures, ['the notification channel no longer exists', 'nobody is on call']);
  await h.close();
});

test('a pager service paged is told of the acknowledgement (so it stops escalating too) and then of the resolution, once each', async (t) => {
  const pagerChannel = '00000000-0000-4000-8000-0000000000dd';
  const h = createHarness({
    stages: [
      {
        stageOrder: 1,
        delayMinutes: 0,
        targets: [
          { type: 'channel', id: pagerChannel, channels: [] },
          { type: 'user', id: alice, channels: ['email'] },
        ],
      },
    ],
    directory: {
      user: async (_tenant, id) => user(id),
      channel: async () => ({
        id: pagerChannel,
        type: 'pager',
        config: {
          integration_key: 'k'.repeat(32),
          severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
        },
      }),
    },
  });
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(2));
  await h.acknowledge(id, alice);
  h.wakeAll(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(4));
  await h.append(id, 'IncidentResolved', {
    incidentId: id,
    by: alice,
    at: h.clock.now().toISOString(),
    reason: 'manual',
    note: null,
    value: null,
  });
  h.wakeAll(id);
  await h.advanceTo(minutes(6));
  t.deepEqual(
    h.delivered.map((d) => [d.medium, d.status]),
    [
      ['pager', 'triggered'],
      ['email', 'triggered'],
      ['pager', 'acknowledged'],
      ['pager', 'resolved'],
      ['email', 'resolved'],
    ],
  );
  await h.close();
});
