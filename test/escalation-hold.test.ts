/**
 * A maintenance window holds an open incident's remaining stages, in virtual time over a real event
 * store (test/support/escalation-harness.ts): held when the window starts (the manager's own timer,
 * no event needed), resumed when it ends with the incident still unacknowledged, the overdue stage
 * firing once at the resume and the next chaining on it; not resumed once acknowledged.
 */
import test from 'ava';
import { createHarness, minutes, T0, user } from './support/escalation-harness.js';
import type { HoldingWindow } from '../src/process/escalation/escalation-hold.js';

const INCIDENT = '00000000-0000-4000-8000-0000000000c1';
const WINDOW = '00000000-0000-4000-8000-0000000000e1';
const [U1, U2, U3] = [
  '00000000-0000-4000-8000-0000000000a1',
  '00000000-0000-4000-8000-0000000000a2',
  '00000000-0000-4000-8000-0000000000a3',
];
const stages = [
  { stageOrder: 1, delayMinutes: 0, targets: [{ type: 'user' as const, id: U1, channels: ['email' as const] }] },
  { stageOrder: 2, delayMinutes: 10, targets: [{ type: 'user' as const, id: U2, channels: ['email' as const] }] },
  { stageOrder: 3, delayMinutes: 10, targets: [{ type: 'user' as const, id: U3, channels: ['email' as const] }] },
];
/** From minute 5 to minute 30, on every rule. */
const window: HoldingWindow = {
  id: WINDOW,
  matcher: { allRules: true, ruleIds: [], clusterIds: [], severities: [] },
  timing: { kind: 'once', startsAt: new Date(minutes(5)).toISOString(), endsAt: new Date(minutes(30)).toISOString() },
  createdAt: new Date(minutes(0)).toISOString(),
  endedAt: null,
};

function harness() {
  const h = createHarness({ stages, maintenanceWindows: async () => [window] });
  for (const id of [U1, U2, U3]) h.users.set(id, user(id));
  return h;
}

test("held at the window's start, resumed at its end: the overdue stage 2 fires once then, stage 3 its delay after", async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  await h.trigger(INCIDENT);
  h.wakeAll(INCIDENT);
  await h.advanceTo(minutes(29));
  t.deepEqual(await h.firedStages(INCIDENT), [{ stage: 1, cycle: 0, at: 0 }], 'stage 2 (due at minute 10) waits');
  const held = (await h.eventStore.readStream(`incident-${INCIDENT}`)).find((e) => e.type === 'EscalationHeld')!;
  t.like(held.data, { windowId: WINDOW, at: new Date(minutes(5)).toISOString(), nextStageOrder: 2, nextCycle: 0 });

  await h.advanceTo(minutes(60));
  t.deepEqual(await h.firedStages(INCIDENT), [
    { stage: 1, cycle: 0, at: 0 },
    { stage: 2, cycle: 0, at: minutes(30) - T0 },
    { stage: 3, cycle: 0, at: minutes(40) - T0 },
  ]);
  const types = (await h.eventTypes(INCIDENT)).filter((type) => type.startsWith('Escalation'));
  t.deepEqual(types, [
    'EscalationStarted',
    'EscalationStageFired',
    'EscalationHeld',
    'EscalationResumed',
    'EscalationStageFired',
    'EscalationStageFired',
  ]);
  t.is(h.delivered.filter((d) => d.key.includes(':stage:2:0:')).length, 1, 'stage 2 delivered once');
});

test('acknowledged while held: nothing resumes and nothing more fires', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  await h.trigger(INCIDENT);
  h.wakeAll(INCIDENT);
  await h.advanceTo(minutes(20));
  await h.acknowledge(INCIDENT, U1);
  h.wakeAll(INCIDENT);
  await h.advanceTo(minutes(90));
  t.deepEqual(
    (await h.firedStages(INCIDENT)).map((s) => s.stage),
    [1],
  );
  t.false((await h.eventTypes(INCIDENT)).includes('EscalationResumed'));
});
