/**
 * Issue 39, item 2: a member stalled past its lease (a SIGSTOP, simulated in process: its reconcile
 * held at a gate while virtual time runs on, its lease lapsing meanwhile) must not page late or
 * record late. A survivor owns the incident from the lapse and makes the missing deliveries one
 * lease after the stage fired (not a fixed 30 s); the stalled member, woken, finds its tenure
 * broken and appends and sends nothing, and after it has rejoined it reads the incident afresh.
 *
 * The tenure here is the contract src/cluster/membership.ts's Tenure keeps (broken by a lapse, for
 * good); that the MongoDB membership keeps it across a real stall and rejoin is
 * cluster-member-release.test.ts's.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { ownerOf } from '../src/cluster/membership.js';
import type { EventStore } from '../src/eventstore/port.js';
import type { StageSnapshot } from '../src/events/escalation.js';
import type { NotifyPort } from '../src/gateways/notify/port.js';
import { createEscalationInstruments } from '../src/process/escalation/escalation-manager.js';
import { createHarness, minutes, T0, user } from './support/escalation-harness.js';

const LEASE_MS = 10_000;
const alice = '00000000-0000-4000-8000-00000000a11c';
const bob = '00000000-0000-4000-8000-000000000b0b';
const stage = (stageOrder: number, delayMinutes: number, userId: string): StageSnapshot => ({
  stageOrder,
  delayMinutes,
  targets: [{ type: 'user', id: userId, channels: ['email'] }],
});

/** A gate the stalled member's work waits at: `reached` once it is there, `open()` wakes it. */
function gate() {
  let arrive!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { reached, open, wait: () => (arrive(), opened) };
}

/** Members a and b on one event store; a's own store or notify port (built on the shared ones) may hold its work at a gate. */
function twoMembers(ofA: (h: ReturnType<typeof createHarness>) => { eventStore?: EventStore; notify?: NotifyPort }) {
  const h = createHarness({ stages: [stage(1, 0, alice), stage(2, 15, bob)] });
  h.users.set(alice, user(alice));
  h.users.set(bob, user(bob));
  let members = ['a', 'b'];
  const leases = { a: { tenure: 1, held: true }, b: { tenure: 1, held: true } };
  const listeners: (() => void)[] = [];
  const incidents: string[] = [];
  const member = (self: 'a' | 'b', own: { eventStore?: EventStore; notify?: NotifyPort } = {}) =>
    h.addManager({
      ...own,
      owns: (id) => ownerOf(id, members) === self,
      tenure: () => {
        const taken = leases[self].tenure;
        return { unbroken: () => leases[self].held && leases[self].tenure === taken };
      },
      onMembersChange: (listener) => {
        listeners.push(listener);
        return () => listeners.splice(listeners.indexOf(listener), 1);
      },
      activeIncidents: async () => incidents,
      redeliveryGraceMs: LEASE_MS,
      instruments: createEscalationInstruments(new Registry()),
    });
  const a = member('a', ofA(h));
  const b = member('b');
  const setMembers = (next: string[]) => {
    members = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    h,
    a,
    b,
    /** A triggered incident that a owns, seen by both members. */
    async incidentOwnedByA() {
      let id = randomUUID();
      while (ownerOf(id, ['a', 'b']) !== 'a') id = randomUUID();
      incidents.push(id);
      await h.trigger(id);
      h.wakeAll(id);
      return id;
    },
    /** a's lease lapses while it is stopped: the others see it gone; its tenure breaks. */
    lapse() {
      leases.a.held = false;
      leases.a.tenure++;
      setMembers(['b']);
    },
    /** a renewed again and read the members: a new tenure, its incidents listed again. */
    rejoin() {
      leases.a.held = true;
      leases.a.tenure++;
      setMembers(['a', 'b']);
    },
  };
}

const stage1 = (h: ReturnType<typeof createHarness>) => h.delivered.filter((d) => d.to.startsWith(alice.slice(0, 8)));

test('stalled right after its EscalationStageFired was written: the survivor pages one lease after the stage fired, the woken member sends and appends nothing, and after it rejoins stage 2 fires once', async (t) => {
  const stall = gate();
  let stallNext = true;
  const world = twoMembers((h) => {
    // The append of the stage lands in the log, then a stops before it hears back.
    const eventStore: EventStore = Object.create(h.eventStore);
    eventStore.append = async (stream, events, options) => {
      const written = await h.eventStore.append(stream, events, options);
      if (stallNext && events.some((e) => e.type === 'EscalationStageFired')) {
        stallNext = false;
        await stall.wait();
      }
      return written;
    };
    return { eventStore };
  });
  const { h, a } = world;
  await h.managers[0]!.stop(); // the harness's own manager stays out of it
  await Promise.all([a.start(), world.b.start()]);
  h.awaitManager(a, false);
  const id = await world.incidentOwnedByA();
  await stall.reached;
  t.deepEqual(
    (await h.firedStages(id)).map((s) => s.stage),
    [1],
    'a fired stage 1 at T0',
  );
  t.deepEqual(h.delivered, [], 'and stopped before paging');

  // a's lease lapses 10 s later; b owns the incident from then on and makes the missing page.
  await h.advanceTo(T0 + LEASE_MS - 1);
  t.deepEqual(h.delivered, [], 'nobody pages while a may still be delivering');
  await h.advanceTo(T0 + LEASE_MS);
  world.lapse();
  await h.advanceTo(T0 + LEASE_MS);
  t.deepEqual(
    stage1(h).map((d) => d.at),
    [LEASE_MS],
    'stage 1 paged by the survivor one lease after it fired (late by the lease, not 30 s)',
  );
  const recorded = await h.eventTypes(id);

  // a wakes 45 s after it stopped: its reconcile goes on from the gate, with its tenure broken.
  await h.advanceTo(T0 + 45_000);
  stall.open();
  await a.idle();
  t.is(stage1(h).length, 1, 'the woken member sent nothing');
  t.deepEqual(await h.eventTypes(id), recorded, 'and appended nothing');

  // It rejoins and owns the incident again: it reads the incident afresh and drives stage 2 once.
  h.awaitManager(a, true);
  world.rejoin();
  await h.advanceTo(minutes(16));
  t.deepEqual(
    (await h.firedStages(id)).map((s) => s.stage),
    [1, 2],
  );
  t.deepEqual(
    h.delivered.map((d) => [d.at, d.key.split(':').slice(1, 3).join(':')]),
    [
      [LEASE_MS, 'stage:1'],
      [15 * 60_000, 'stage:2'],
    ],
    'each stage paged once, stage 2 on time',
  );
  await h.close();
});

test('stalled after sending a page but before recording it: the survivor makes it again with the same key one lease after the stage fired, and the woken member records nothing late', async (t) => {
  const stall = gate();
  let stallNext = true;
  const world = twoMembers((h) => ({
    notify: {
      async deliver(target, message, key) {
        const outcome = await h.notify.deliver(target, message, key);
        if (stallNext) {
          stallNext = false;
          await stall.wait();
        }
        return outcome;
      },
    },
  }));
  const { h, a } = world;
  await h.managers[0]!.stop();
  await Promise.all([a.start(), world.b.start()]);
  h.awaitManager(a, false);
  const id = await world.incidentOwnedByA();
  await stall.reached;
  t.deepEqual(
    stage1(h).map((d) => d.at),
    [0],
    'a paged at T0, then stopped',
  );

  await h.advanceTo(T0 + LEASE_MS);
  world.lapse();
  await h.advanceTo(T0 + LEASE_MS);
  const pages = stage1(h);
  t.deepEqual(
    pages.map((d) => d.at),
    [0, LEASE_MS],
    'the survivor cannot know the page went out: it makes it again one lease later',
  );
  t.is(pages[1]?.key, pages[0]?.key, 'with the same delivery key (a receiver honouring it drops the second)');

  await h.advanceTo(T0 + 45_000);
  stall.open();
  await a.idle();
  const delivered = (await h.eventStore.readStream(`incident-${id}`)).filter((e) => e.type === 'NotificationDelivered');
  t.is(delivered.length, 1, 'one outcome on the stream: the woken member did not record its page late');
  t.is(stage1(h).length, 2, 'and sent nothing more');
  await h.close();
});
