/**
 * The MongoDB stand-in keeps the documented TTL rules (test/support/mongo-standin/ttl-monitor.ts),
 * and the filters and upserts the cluster leases rely on, so an adapter that leaned on a TTL index
 * for liveness would fail here as on a server.
 */
import test from 'ava';
import { MongoClient, MongoServerError } from 'mongodb';
import { startMongoStandIn } from './support/mongo-standin/index.js';
import { virtualClock } from './support/virtual-clock.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

async function standInOnClock(t: { teardown(fn: () => Promise<void>): void }) {
  const clock = virtualClock(T0);
  const standIn = await startMongoStandIn({ now: clock.now, timers: clock.timers('mongo') });
  const client = new MongoClient(standIn.url);
  t.teardown(async () => {
    await client.close(true);
    await standIn.stop();
  });
  const collection = client.db('ttl_test').collection<{ _id: string; at?: unknown }>('leases');
  return { clock, collection };
}

const ids = async (collection: { find(): { toArray(): Promise<{ _id: string }[]> } }) =>
  (await collection.find().toArray()).map((doc) => doc._id).sort();

test('a TTL index deletes an expired document only at the next round of the 60 s monitor', async (t) => {
  const { clock, collection } = await standInOnClock(t);
  await collection.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds: 5 });
  await collection.insertMany([
    { _id: 'early', at: new Date(T0) }, // expires at T0 + 5 s
    { _id: 'late', at: new Date(T0 + 50_000) }, // expires at T0 + 55 s
    { _id: 'array', at: [new Date(T0 + 90_000), new Date(T0)] }, // the earliest date counts
    { _id: 'string', at: new Date(T0).toISOString() }, // not a date: never expires
    { _id: 'missing' },
  ]);
  await clock.advanceTo(T0 + 59_999);
  t.deepEqual(
    await ids(collection),
    ['array', 'early', 'late', 'missing', 'string'],
    'expired documents stay until the monitor runs',
  );
  await clock.advanceTo(T0 + 60_000);
  t.deepEqual(await ids(collection), ['missing', 'string']);
  const ttl = (await collection.listIndexes().toArray()).find((index) => index.name === 'at_ttl');
  t.like(ttl, { key: { at: 1 }, expireAfterSeconds: 5 });
});

const refused: [string, Record<string, 1>, number, number][] = [
  ['a compound TTL index', { at: 1, other: 1 }, 10, 67],
  ['a TTL index on _id', { _id: 1 }, 10, 197],
  ['a negative expireAfterSeconds', { at: 1 }, -1, 67],
];
for (const [title, key, seconds, code] of refused) {
  test(`${title} is refused as by a server`, async (t) => {
    const { collection } = await standInOnClock(t);
    const error = await t.throwsAsync(collection.createIndex(key, { name: 'ttl', expireAfterSeconds: seconds }), {
      instanceOf: MongoServerError,
    });
    t.is(error!.code, code);
    t.is(
      (
        await collection
          .listIndexes()
          .toArray()
          .catch(() => [])
      ).length,
      0,
      'nothing was created',
    );
  });
}

test('the same index name with another expireAfterSeconds is a conflict', async (t) => {
  const { collection } = await standInOnClock(t);
  await collection.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds: 0 });
  await collection.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds: 0 });
  const error = await t.throwsAsync(collection.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds: 60 }), {
    instanceOf: MongoServerError,
  });
  t.is(error!.codeName, 'IndexOptionsConflict');
});

test('filters compare dates with dates only, and an upsert on _id inserts once then updates', async (t) => {
  const { collection } = await standInOnClock(t);
  const first = await collection.updateOne({ _id: 'm' }, { $set: { at: new Date(T0 + 10_000) } }, { upsert: true });
  t.like(first, { upsertedCount: 1, matchedCount: 0 });
  const second = await collection.updateOne({ _id: 'm' }, { $set: { at: new Date(T0 + 13_000) } }, { upsert: true });
  t.like(second, { upsertedCount: 0, matchedCount: 1, modifiedCount: 1 });
  await collection.insertOne({ _id: 'number', at: T0 + 20_000 });
  t.deepEqual(await collection.find({ at: { $gt: new Date(T0 + 12_000) } }).toArray(), [
    { _id: 'm', at: new Date(T0 + 13_000) },
  ]);
  t.deepEqual(
    await collection.find({ at: { $gt: new Date(T0 + 13_000) } }).toArray(),
    [],
    'strictly greater, and a number is no date',
  );
});
