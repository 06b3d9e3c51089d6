/**
 * Issue 39 on the MongoDB lease membership, in virtual time on the MongoDB stand-in (leases 10 s,
 * renewed every 3 s): a member that cannot do its work gives its lease up and rejoins when it can
 * (the decision is src/cluster/lease-decision.ts, fed here with what a health probe would have seen),
 * and a member stalled past its lease (its timers paused: a SIGSTOP) finds the work it had begun
 * fenced when it wakes, even after it has rejoined.
 */
import test from 'ava';
import { MongoClient } from 'mongodb';
import { decideLease } from '../src/cluster/lease-decision.js';
import { MEMBERS_COLLECTION } from '../src/cluster/mongodb-membership.js';
import { LEASE_MS, RENEW_EVERY_MS, membershipCluster, type SimulatedMember } from './support/membership-cluster.js';
import { startMongoStandIn } from './support/mongo-standin/index.js';
import { virtualClock } from './support/virtual-clock.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const BOUND_MS = 5000;
const keys = Array.from({ length: 600 }, (_, i) => `incident-${i}`);
const ownedBy = (member: SimulatedMember) => keys.filter((key) => member.membership.owns(key));

async function world(t: { teardown(fn: () => Promise<void>): void }) {
  const clock = virtualClock(T0);
  const standIn = await startMongoStandIn({ now: clock.now, timers: clock.timers('mongo') });
  t.teardown(() => standIn.stop());
  const cluster = membershipCluster(standIn.url, 'cluster_test', clock);
  const inspector = new MongoClient(standIn.url);
  t.teardown(async () => {
    await cluster.close();
    await inspector.close(true);
  });
  const leases = inspector.db('cluster_test').collection<{ _id: string }>(MEMBERS_COLLECTION);
  return { clock, cluster, leases };
}

test('a member whose event log is out of reach past the bound gives its lease up at its next round, the others take its share at their next reading, and it rejoins once the log answers', async (t) => {
  const { clock, cluster, leases } = await world(t);
  // What a's log probe saw: it answers every second until the cut at T0 + 4 s, and again from T0 + 20 s.
  const cut = { from: T0 + 4000, until: T0 + 20_000 };
  const logReadOkAt = () => {
    const now = clock.epochMs;
    if (now < cut.from) return now;
    return now >= cut.until ? now : cut.from;
  };
  const assess = (holding: boolean) =>
    decideLease(
      {
        now: clock.epochMs,
        holding,
        watchingSince: T0,
        logReadOkAt: logReadOkAt(),
        appendsRefused: null,
        storeReadOkAt: clock.epochMs,
        loops: [],
      },
      { unreachableMs: BOUND_MS, stuckLoopMs: 120_000 },
    );
  const a = await cluster.join('a', 'a#1', assess);
  const b = await cluster.join('b');
  const c = await cluster.join('c');
  await clock.advanceTo(T0 + RENEW_EVERY_MS);
  const before = ownedBy(a);
  t.true(before.length > 100, `a owns ${before.length} keys`);
  const tenure = a.membership.tenure();

  // Its rounds at +6 s and +9 s find the log 2 s and 5 s out (within the bound): it renews.
  await clock.advanceTo(T0 + 9000);
  t.deepEqual(a.membership.members(), ['a', 'b', 'c']);
  t.true(tenure.unbroken());
  // At +12 s it has been out 8 s: a gives its lease up, owns nothing from that moment on.
  await clock.advanceTo(T0 + 12_000);
  t.deepEqual(a.membership.members(), []);
  t.deepEqual(ownedBy(a), []);
  t.false(tenure.unbroken(), 'work begun before the release may not append or send');
  t.is(await leases.findOne({ _id: 'a' }), null, 'its lease document is deleted, not left to lapse');
  t.is(await a.metric('cluster_lease_releases_total'), 1);
  t.true(a.logs.some((line) => line.msg.startsWith('giving up the lease')));
  // b and c read the leases at +12 s too (after a's round) or at the latest +15 s: a is gone, before its lease (to +19 s) would lapse.
  await clock.advanceTo(T0 + 15_000);
  for (const member of [b, c]) {
    t.deepEqual(member.membership.members(), ['b', 'c'], `${member.id} sees a gone`);
    t.is(await member.metric('cluster_takeovers_total'), 0, 'a release is a leave, not a lapse');
  }
  t.is(ownedBy(b).length + ownedBy(c).length, keys.length, "b and c own a's keys too");

  // While the log is out a stays out; at +21 s (its first round after the log answered at +20 s) it rejoins.
  await clock.advanceTo(T0 + 20_999);
  t.deepEqual(a.membership.members(), []);
  t.is(await leases.findOne({ _id: 'a' }), null);
  await clock.advanceTo(T0 + 21_000);
  t.deepEqual(a.membership.members(), ['a', 'b', 'c']);
  t.deepEqual(ownedBy(a), before, 'it gets exactly its keys back');
  t.false(tenure.unbroken(), 'the old tenure stays broken after the rejoin');
  t.true(a.membership.tenure().unbroken(), 'work begun now may go on');
  await clock.advanceTo(T0 + 24_000);
  t.deepEqual(b.membership.members(), ['a', 'b', 'c'], 'the others see it back at their next reading');
  t.deepEqual(a.changes, [['a'], ['a', 'b', 'c'], [], ['a', 'b', 'c']]);
  t.is(await a.metric('cluster_lease_releases_total'), 1);
});

test('a member stalled past its lease (timers paused, a SIGSTOP): the work it had begun stays fenced when it wakes, and after it rejoins; its listeners hear the lapse and the rejoin', async (t) => {
  const { clock, cluster } = await world(t);
  const a = await cluster.join('a');
  const b = await cluster.join('b');
  await clock.advanceTo(T0 + RENEW_EVERY_MS);
  const tenure = a.membership.tenure();
  // Stopped at +4 s, right after its renewal at +3 s: its lease runs to +13 s.
  await clock.advanceTo(T0 + 4000);
  clock.pause(a.group);
  await clock.advanceTo(T0 + RENEW_EVERY_MS + LEASE_MS);
  t.deepEqual(b.membership.members(), ['b'], 'b counts a out when its lease lapses');
  t.is(await b.metric('cluster_takeovers_total'), 1);
  await clock.advanceTo(T0 + 45_000);
  t.false(tenure.unbroken(), 'on waking, before anything else ran, the lease is seen lapsed');
  t.deepEqual(a.membership.owns('incident-1'), false);
  // It wakes: its overdue renewal round runs, MongoDB takes it, and it reads the members again.
  clock.resume(a.group);
  await clock.advanceTo(T0 + 45_000);
  t.deepEqual(a.membership.members(), ['a', 'b']);
  t.false(tenure.unbroken(), 'what it had begun before the stall stays fenced after the rejoin');
  t.true(a.membership.tenure().unbroken());
  t.deepEqual(a.changes.slice(-2), [[], ['a', 'b']], 'the lapse, then the rejoin: its work is listed again');
});
