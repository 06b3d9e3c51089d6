/**
 * The escalation manager in a cluster (virtual time): each member drives only the incidents it
 * owns; when a member dies, the survivors take its incidents over at the change of members and
 * fire an overdue stage once, its lateness recorded.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { ownerOf } from '../src/cluster/membership.js';
import type { StageSnapshot } from '../src/events/escalation.js';
import { toDomainEvent } from '../src/commanding/command-handler.js';
import {
  evolveIncident,
  incidentStream,
  initialIncidentState,
  type IncidentStreamEvent,
} from '../src/events/incident.js';
import { createEscalationInstruments } from '../src/process/escalation/escalation-manager.js';
import { createHarness, minutes, user } from './support/escalation-harness.js';

const alice = '00000000-0000-4000-8000-00000000a11c';
const bob = '00000000-0000-4000-8000-000000000b0b';
const stage = (stageOrder: number, delayMinutes: number, userId: string): StageSnapshot => ({
  stageOrder,
  delayMinutes,
  targets: [{ type: 'user', id: userId, channels: ['email'] }],
});

function cluster() {
  const h = createHarness({ stages: [stage(1, 0, alice), stage(2, 15, bob)] });
  h.users.set(alice, user(alice));
  h.users.set(bob, user(bob));
  let members = ['a', 'b'];
  const listeners: (() => void)[] = [];
  const incidents: string[] = [];
  const member = (self: string) => {
    const registry = new Registry();
    const instruments = createEscalationInstruments(registry);
    const manager = h.addManager({
      owns: (id) => ownerOf(id, members) === self,
      onMembersChange: (listener) => {
        listeners.push(listener);
        return () => listeners.splice(listeners.indexOf(listener), 1);
      },
      activeIncidents: async () => incidents,
      instruments,
    });
    return { manager, registry };
  };
  // The harness's own first manager stays out of it: stopped before anything happens.
  const a = member('a');
  const b = member('b');
  return {
    h,
    a,
    b,
    incidents,
    setMembers(next: string[]) {
      members = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

const stagesOf = async (h: ReturnType<typeof createHarness>, id: string) =>
  (await h.firedStages(id)).map((s) => s.stage);

test("each member fires the stages of the incidents it owns; a dead member's incidents wait for the change of members, then fire once, late", async (t) => {
  const { h, a, b, incidents, setMembers } = cluster();
  await h.managers[0]!.stop();
  await a.manager.start();
  await b.manager.start();
  // Given twelve incidents triggered and seen by both members
  for (let i = 0; i < 12; i++) {
    const id = randomUUID();
    incidents.push(id);
    await h.trigger(id);
    h.wakeAll(id);
  }
  const ownedByB = incidents.filter((id) => ownerOf(id, ['a', 'b']) === 'b');
  t.true(ownedByB.length > 0 && ownedByB.length < 12, `b owns ${ownedByB.length}`);
  await h.advanceTo(minutes(1));
  // Then stage 1 of every incident fired once
  for (const id of incidents) t.deepEqual(await stagesOf(h, id), [1]);
  t.is(h.delivered.length, 12);

  // When b dies (its timers gone, no goodbye) and stage 2 comes due
  await b.manager.stop();
  await h.advanceTo(minutes(20));
  // Then a fired stage 2 of its own incidents only: nobody drives b's until the members change
  for (const id of incidents) t.deepEqual(await stagesOf(h, id), ownedByB.includes(id) ? [1] : [1, 2], id);

  // When b's lease lapses and a sees the members change at minute 20
  setMembers(['a']);
  await h.advanceTo(minutes(21));
  // Then a fired stage 2 of b's incidents, once, and recorded how late it was (5 minutes)
  for (const id of incidents) t.deepEqual(await stagesOf(h, id), [1, 2], id);
  t.is(h.delivered.length, 24, 'every stage delivered exactly once');
  const lateness = (await a.registry.getSingleMetric('escalation_stage_lateness_seconds')!.get()).values as {
    metricName?: string;
    labels: Record<string, unknown>;
    value: number;
  }[];
  const over = lateness.find(
    (v) => v.metricName === 'escalation_stage_lateness_seconds_bucket' && v.labels.le === 60,
  )!.value;
  const total = lateness.find((v) => v.metricName === 'escalation_stage_lateness_seconds_count')!.value;
  t.is(total - over, ownedByB.length, 'the taken-over stages are the late ones (more than a minute)');
  await h.close();
});

test('an incident resolved while no instance ran is listed at the next start by notices_pending and gets its all-clear once', async (t) => {
  const h = createHarness({ stages: [stage(1, 0, alice), stage(2, 15, bob)] });
  h.users.set(alice, user(alice));
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(1));
  t.is(h.delivered.length, 1, 'alice paged');
  const fold = async () =>
    (await h.eventStore.readStream(incidentStream(id)))
      .map((e) => toDomainEvent<IncidentStreamEvent>(e))
      .reduce(evolveIncident, initialIncidentState());
  // Given the only instance stopped, and the incident resolved meanwhile (nobody to send the all-clear)
  await h.managers[0]!.stop();
  await h.append(id, 'IncidentResolved', {
    incidentId: id,
    by: alice,
    at: h.clock.now().toISOString(),
    reason: 'manual',
    note: null,
    value: null,
  });
  const before = await fold();
  t.true(before.exists && before.notices_pending, 'what the next start lists it by');
  // When an instance starts and lists the incidents with notices pending
  const restarted = h.addManager({
    activeIncidents: async () => {
      const state = await fold();
      return state.exists && state.notices_pending ? [id] : [];
    },
  });
  await restarted.start();
  await h.advanceTo(minutes(2));
  // Then alice has the all-clear, once, and nothing is pending any more
  t.deepEqual(
    h.delivered.map((d) => d.status),
    ['triggered', 'resolved'],
  );
  const after = await fold();
  t.false(after.exists && after.notices_pending);
  await h.close();
});
