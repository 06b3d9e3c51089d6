/**
 * The MongoDB lease membership (src/cluster/mongodb-membership.ts): three members on one MongoDB
 * stand-in in virtual time. Leases are 10 s, renewed every 3 s; the stand-in's TTL monitor runs
 * every 60 s as a server's does, so every expectation below holds without it.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { ownerOf } from '../src/cluster/membership.js';
import { MEMBERS_COLLECTION } from '../src/cluster/mongodb-membership.js';
import { LEASE_MS, RENEW_EVERY_MS, membershipCluster, type SimulatedMember } from './support/membership-cluster.js';
import { startMongoStandIn } from './support/mongo-standin/index.js';
import { virtualClock } from './support/virtual-clock.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const keys = Array.from({ length: 2000 }, (_, i) => `rule-${i}`);
const ownedBy = (member: SimulatedMember) => keys.filter((key) => member.membership.owns(key));

/** A stand-in on the virtual clock, three members joined at T0 and renewed once (at T0 + 3 s). */
async function threeMembers(t: { teardown(fn: () => Promise<void>): void }, serverSelectionTimeoutMS = 2000) {
  const clock = virtualClock(T0);
  const standIn = await startMongoStandIn({ now: clock.now, timers: clock.timers('mongo') });
  t.teardown(() => standIn.stop());
  const url = standIn.url.replace(
    /serverSelectionTimeoutMS=\d+/,
    `serverSelectionTimeoutMS=${serverSelectionTimeoutMS}`,
  );
  const cluster = membershipCluster(url, 'cluster_test', clock);
  const inspector = new MongoClient(url);
  t.teardown(async () => {
    await cluster.close();
    await inspector.close(true);
  });
  const [a, b, c] = [await cluster.join('a'), await cluster.join('b'), await cluster.join('c')];
  await clock.advanceTo(T0 + RENEW_EVERY_MS);
  const leases = inspector.db('cluster_test').collection<{ _id: string; expiresAt: Date }>(MEMBERS_COLLECTION);
  return { clock, standIn, cluster, leases, a: a!, b: b!, c: c! };
}

test('three members see each other, each in its own lease document with a TTL index for garbage only', async (t) => {
  const { a, b, c, leases } = await threeMembers(t);
  for (const member of [a, b, c]) t.deepEqual(member.membership.members(), ['a', 'b', 'c']);
  const lease = await leases.findOne({ _id: 'b' });
  t.deepEqual(Object.keys(lease!).sort(), ['_id', 'expiresAt', 'host', 'pid', 'renewedAt', 'startedAt']);
  t.deepEqual(lease!.expiresAt, new Date(T0 + RENEW_EVERY_MS + LEASE_MS));
  const ttl = (await leases.listIndexes().toArray()).find((index) => index.expireAfterSeconds !== undefined);
  t.like(ttl, { key: { expiresAt: 1 }, expireAfterSeconds: 0 });
  t.is(await a.metric('cluster_members'), 3);
  t.is(await a.metric('cluster_lease_renewals_total', { outcome: 'ok' }), 2);
});

test('a crashed member is dropped when its lease lapses and not before, long before the TTL monitor collects it', async (t) => {
  const { clock, leases, a, b, c } = await threeMembers(t);
  clock.halt(c.group); // kill -9 right after its renewal at T0 + 3 s: its lease runs until T0 + 13 s
  const lapse = T0 + RENEW_EVERY_MS + LEASE_MS;

  await clock.advanceTo(lapse - 1);
  for (const member of [a, b])
    t.deepEqual(member.membership.members(), ['a', 'b', 'c'], `${member.id} one ms before the lapse`);
  t.is(await a.metric('cluster_takeovers_total'), 0);

  await clock.advanceTo(lapse);
  for (const member of [a, b]) {
    t.deepEqual(member.membership.members(), ['a', 'b'], `${member.id} at the lapse`);
    t.is(await member.metric('cluster_takeovers_total'), 1);
  }
  t.deepEqual(c.membership.members(), [], 'the crashed member fences itself: it owns nothing');
  t.false(c.membership.owns('rule-1'));
  t.truthy(
    await leases.findOne({ _id: 'c' }),
    'the expired document is still there: liveness did not wait for it to go',
  );

  await clock.advanceTo(T0 + 60_000); // the stand-in's TTL monitor round
  t.is(await leases.findOne({ _id: 'c' }), null, 'the TTL monitor collected it');
  t.deepEqual(a.changes, [['a'], ['a', 'b', 'c'], ['a', 'b']]);
  t.is(await a.metric('cluster_takeovers_total'), 1);
});

test('a graceful stop is seen at the next renewal of the others and is no takeover', async (t) => {
  const { clock, leases, a, b, c } = await threeMembers(t);
  await clock.advanceTo(T0 + 4_000);
  await b.membership.stop();
  t.is(await leases.findOne({ _id: 'b' }), null, 'the leaving member deleted its lease');
  t.deepEqual(b.membership.members(), []);
  t.deepEqual(b.changes.at(-1), []);

  const nextRenewal = T0 + 2 * RENEW_EVERY_MS;
  await clock.advanceTo(nextRenewal - 1);
  t.deepEqual(a.membership.members(), ['a', 'b', 'c'], 'not before the next renewal');
  await clock.advanceTo(nextRenewal);
  for (const member of [a, c]) {
    t.deepEqual(member.membership.members(), ['a', 'c']);
    t.is(await member.metric('cluster_takeovers_total'), 0);
    t.is(await member.metric('cluster_membership_changes_total'), member.changes.length);
  }
});

test('a member cut off from MongoDB fences itself when its lease lapses, and logs failures rate-limited', async (t) => {
  // Fail fast: a server that is gone is otherwise waited for 2 s per renewal (server selection).
  const { clock, standIn, a, b, c } = await threeMembers(t, 50);
  const before = ownedBy(a);
  await standIn.stop();
  for (const other of [b, c]) clock.halt(other.group); // only a is watched (each failing round costs real ms)
  const lapse = T0 + RENEW_EVERY_MS + LEASE_MS;

  await clock.advanceTo(lapse - 1);
  // It read b's and c's leases before they renewed at +3 s (running to +10 s), but it cannot tell
  // them from members it failed to read: it takes nothing over, and keeps them while its lease runs.
  t.deepEqual(a.membership.members(), ['a', 'b', 'c']);
  t.deepEqual(ownedBy(a), before, 'its share is unchanged: no takeover on a stale reading');
  t.is(await a.metric('cluster_lease_renewals_total', { outcome: 'failed' }), 3, 'renewals at +6, +9 and +12 s failed');

  await clock.advanceTo(lapse);
  t.deepEqual(a.membership.members(), []);
  t.deepEqual(ownedBy(a), [], 'owns nothing once its own lease lapsed');
  t.deepEqual(a.changes, [['a'], ['a', 'b', 'c'], []]);
  t.is(await a.metric('cluster_takeovers_total'), 0, 'its own isolation is not a takeover of the others');
  t.true(a.logs.some((line) => line.msg.startsWith('own lease lapsed')));

  await clock.advanceTo(T0 + 66_000);
  const failureLogs = a.logs.filter((line) => line.msg === 'cluster lease renewal failed');
  t.is(failureLogs.length, 2, 'the first failure (at +6 s) and one more a minute later (at +66 s)');
  t.like(failureLogs[1], { notLogged: 19 });
  t.is(await a.metric('cluster_lease_renewals_total', { outcome: 'failed' }), 21);
});

test('2,000 keys split three ways, move only from a lapsed member, and re-spread when it returns', async (t) => {
  const { clock, cluster, a, b, c } = await threeMembers(t);
  const before = new Map([a, b, c].map((member) => [member.id, ownedBy(member)]));
  for (const share of before.values()) t.true(share.length > 560 && share.length < 780, `a share of ${share.length}`);
  t.is([...before.values()].flat().length + 0, keys.length);
  t.is(new Set([...before.values()].flat()).size, keys.length, 'every key has exactly one owner');

  clock.halt(c.group);
  await clock.advanceTo(T0 + RENEW_EVERY_MS + LEASE_MS);
  const [ofA, ofB] = [ownedBy(a), ownedBy(b)];
  t.is(ofA.length + ofB.length, keys.length);
  t.true(
    before.get('a')!.every((key) => ofA.includes(key)),
    "a keeps its keys and takes some of c's",
  );
  t.true(before.get('c')!.some((key) => ofA.includes(key)) && before.get('c')!.some((key) => ofB.includes(key)));

  const returned = await cluster.join('c');
  t.deepEqual(returned.membership.members(), ['a', 'b', 'c']);
  await clock.advance(RENEW_EVERY_MS);
  t.deepEqual(ownedBy(returned), before.get('c'), 'the returning member gets back exactly its keys');
  t.deepEqual(ownedBy(a), before.get('a'));
  t.deepEqual(a.changes, [['a'], ['a', 'b', 'c'], ['a', 'b'], ['a', 'b', 'c']], 'the listener fires once per change');
  t.is(await a.metric('cluster_membership_changes_total'), 4);
});

test('ownerOf agrees with owns: the owner of a key is the one member that owns it', async (t) => {
  const { a, b, c } = await threeMembers(t);
  for (const key of keys.slice(0, 100)) {
    const owner = ownerOf(key, ['a', 'b', 'c']);
    t.deepEqual(
      [a, b, c].filter((member) => member.membership.owns(key)).map((member) => member.id),
      [owner],
    );
  }
});

const realMongo = process.env.MONGODB_URL;
if (!realMongo) {
  test.skip('on a real MongoDB: skipped, MONGODB_URL is not set', () => {});
} else {
  test('on a real MongoDB: members see each other, a crash lapses after the lease, a stop leaves at once', async (t) => {
    const clock = virtualClock(Date.now()); // leases in the real future: the server's TTL monitor leaves them alone
    const start = clock.epochMs;
    const database = `cluster_membership_${randomUUID().slice(0, 8)}`;
    const cluster = membershipCluster(realMongo, database, clock);
    const admin = new MongoClient(realMongo);
    t.teardown(async () => {
      await cluster.close();
      await admin.db(database).dropDatabase();
      await admin.close();
    });
    const [a, b, c] = [await cluster.join('a'), await cluster.join('b'), await cluster.join('c')];
    await clock.advanceTo(start + RENEW_EVERY_MS);
    t.deepEqual(a!.membership.members(), ['a', 'b', 'c']);
    clock.halt(c!.group);
    await clock.advanceTo(start + RENEW_EVERY_MS + LEASE_MS - 1);
    t.deepEqual(a!.membership.members(), ['a', 'b', 'c']);
    await clock.advanceTo(start + RENEW_EVERY_MS + LEASE_MS);
    t.deepEqual(a!.membership.members(), ['a', 'b']);
    t.is(await a!.metric('cluster_takeovers_total'), 1);
    await b!.membership.stop();
    await clock.advance(RENEW_EVERY_MS);
    t.deepEqual(a!.membership.members(), ['a']);
    t.is(await a!.metric('cluster_takeovers_total'), 1);
  });
}
