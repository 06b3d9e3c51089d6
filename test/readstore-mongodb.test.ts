import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { MongoClient, MongoServerError } from 'mongodb';
import { openMongoReadStore } from '../src/readstore/mongodb.js';
import { keysetCondition, toMongoFilter, toMongoFindQuery, toMongoSort } from '../src/readstore/mongodb-query.js';
import { DuplicateKeyError, ReadStoreUnavailableError, type ReadStore } from '../src/readstore/port.js';
import { startMongoStandIn, type MongoStandIn } from './support/mongo-standin/index.js';
import { readStoreContract } from './support/readstore-contract.js';

let standIn: MongoStandIn | undefined;
test.before(async () => {
  standIn = await startMongoStandIn();
});
test.after.always(async () => {
  await standIn?.stop();
});

const openStandIn = () => openMongoReadStore(standIn!.url, { dbName: 'readstore_test' });

readStoreContract('mongodb stand-in', { open: openStandIn });

readStoreContract('mongodb real server', {
  skipReason: process.env.MONGODB_URL ? undefined : 'MONGODB_URL is not set',
  open: () => openMongoReadStore(process.env.MONGODB_URL!, { dbName: 'readstore_contract' }),
});

// Translation of the port's queries.

test('filters translate to Mongo conditions, with id as _id', (t) => {
  t.deepEqual(
    toMongoFilter({
      id: 'a',
      tenantId: 't1',
      deletedAt: null,
      name: { $in: ['Ada', 'Bob'] },
      status: { $ne: 'gone' },
      age: { $gte: 30, $lt: 41 },
      tags: { $contains: 'eng' },
    }),
    {
      _id: 'a',
      tenantId: 't1',
      deletedAt: null,
      name: { $in: ['Ada', 'Bob'] },
      status: { $ne: 'gone' },
      age: { $gte: 30, $lt: 41 },
      tags: 'eng',
    },
  );
  t.throws(() => toMongoFilter({ name: { $regex: 'A' } as never }), { message: /unsupported condition on "name"/ });
  t.throws(() => toMongoFilter({ name: {} as never }), { message: /unsupported condition/ });
});

test('sorts append _id ascending unless id is already a key', (t) => {
  t.deepEqual(toMongoSort(), [['_id', 1]]);
  t.deepEqual(
    toMongoSort([
      ['age', 'desc'],
      ['name', 'asc'],
    ]),
    [
      ['age', -1],
      ['name', 1],
      ['_id', 1],
    ],
  );
  t.deepEqual(toMongoSort([['id', 'desc']]), [['_id', -1]]);
});

test('keyset continuation is an $or of the standard conditions, honouring directions', (t) => {
  t.deepEqual(
    keysetCondition(
      [
        ['age', 'desc'],
        ['name', 'asc'],
      ],
      { values: [36, 'Ada'], id: 'a' },
    ),
    {
      $or: [{ age: { $lt: 36 } }, { age: 36, name: { $gt: 'Ada' } }, { age: 36, name: 'Ada', _id: { $gt: 'a' } }],
    },
  );
  t.deepEqual(keysetCondition([], { values: [], id: 'a' }), { $or: [{ _id: { $gt: 'a' } }] });
  // With id among the sort keys, its value may be listed or left out; after.id is what counts.
  const expected = { $or: [{ _id: { $lt: 'b' } }] };
  t.deepEqual(keysetCondition([['id', 'desc']], { values: ['b'], id: 'b' }), expected);
  t.deepEqual(keysetCondition([['id', 'desc']], { values: [], id: 'b' }), expected);
  t.throws(() => keysetCondition([['age', 'asc']], { values: [], id: 'a' }), { message: /1 sort keys/ });
  t.deepEqual(toMongoFindQuery({ tenantId: 't' }, [], { values: [], id: 'a' }), {
    $and: [{ tenantId: 't' }, { $or: [{ _id: { $gt: 'a' } }] }],
  });
});

// Adapter behaviour beyond the contract, against the stand-in.

const withStore = (title: string, body: (store: ReadStore, t: ExecutionContext, collection: string) => Promise<void>) =>
  test.serial(title, async (t) => {
    const store = await openStandIn();
    const collection = `mongo_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    try {
      await body(store, t, collection);
    } finally {
      await store.close();
    }
  });

withStore('documents come back with id and without internal fields', async (store, t, c) => {
  await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 1n }], async (_e, w) => {
    await w.upsert(c, { id: 'x', tenantId: 't', big: 2n ** 60n, missing: undefined });
  });
  t.deepEqual(await store.get(c, 'x'), { id: 'x', tenantId: 't', big: 2n ** 60n });
  t.deepEqual(await store.find(c, {}), [{ id: 'x', tenantId: 't', big: 2n ** 60n }]);
});

withStore('writes of one event all apply; a stale event changes nothing and does not fail', async (store, t, c) => {
  const batch = (position: bigint, name: string) =>
    store.applyBatch({ projection: 'p', version: 1 }, [{ position }], async (_e, w) => {
      await w.upsert(c, { id: 'x', tenantId: 't', name, step: 1 });
      await w.patch(c, 'x', { step: 2 });
      await w.upsert(c, { id: 'y', tenantId: 't' });
      await w.delete(c, 'y');
      await w.upsert(c, { id: 'z', tenantId: 't' });
      // Redelivered (or stale), z's tombstone keeps the upsert from recreating it: nothing left to delete.
      t.is(await w.deleteMany(c, { id: 'z' }), name === 'five' ? 1 : 0, 'deleteMany sees what this event wrote');
    });
  await batch(5n, 'five');
  t.like(await store.get(c, 'x'), { name: 'five', step: 2 });
  t.is(await store.get(c, 'y'), null);
  await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 6n }], async (_e, w) =>
    w.patch(c, 'x', { step: 3 }),
  );
  await batch(5n, 'five again');
  await batch(4n, 'four');
  t.like(await store.get(c, 'x'), { name: 'five', step: 3 });
  t.is(await store.get(c, 'y'), null);
  t.is(await store.get(c, 'z'), null);
});

withStore('duplicate keys name the violated index; a stale upsert is not mistaken for one', async (store, t, c) => {
  await store.ensureIndexes(c, [{ name: 'by_email', fields: ['email'], unique: true }]);
  await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 3n }], async (_e, w) => {
    await w.upsert(c, { id: '1', email: 'a@b.c' });
  });
  const error = await t.throwsAsync(
    store.applyBatch({ projection: 'p', version: 1 }, [{ position: 4n }], async (_e, w) =>
      w.upsert(c, { id: '2', email: 'a@b.c' }),
    ),
  );
  t.true(error instanceof DuplicateKeyError);
  t.like(error, { collection: c, index: 'by_email' });
  await t.notThrowsAsync(
    store.applyBatch({ projection: 'p', version: 1 }, [{ position: 2n }], async (_e, w) =>
      w.upsert(c, { id: '1', email: 'old@b.c' }),
    ),
  );
  t.is((await store.get(c, '1'))?.email, 'a@b.c');
});

withStore('batches write to physical collections and reject positions that do not increase', async (store, t, c) => {
  const shadow = `${c}_rebuild`;
  await store.applyBatch(
    { projection: 'p', version: 2, collectionNames: (logical) => `${logical}_rebuild` },
    [{ position: 1n }],
    async (_e, w) => {
      await w.upsert(c, { id: 'a', tenantId: 't' });
      t.is((await w.get(c, 'a'))?.id, 'a', 'the writer reads the physical collection too');
    },
  );
  t.is(await store.get(c, 'a'), null);
  t.is((await store.get(shadow, 'a'))?.id, 'a');
  await t.throwsAsync(
    store.applyBatch({ projection: 'p', version: 1 }, [{ position: 2n }, { position: 2n }], async () => {}),
    {
      message: /must increase/,
    },
  );
  await store.dropCollection(shadow);
  await store.dropCollection(shadow);
});

withStore('replaceCollection with a missing source leaves the target empty', async (store, t, c) => {
  await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 1n }], async (_e, w) =>
    w.upsert(c, { id: 'old' }),
  );
  await store.replaceCollection(`${c}_never_built`, c);
  t.deepEqual(await store.find(c, {}), []);
});

withStore('checkpoints keep full int64 positions', async (store, t) => {
  const projection = `big-${randomUUID()}`;
  await store.setCheckpoint(projection, { position: 2n ** 62n + 1n, version: 1 });
  t.deepEqual(await store.getCheckpoint(projection), { position: 2n ** 62n + 1n, version: 1 });
  await store.setCheckpoint(projection, { position: -1n, version: 2 });
  t.deepEqual(await store.getCheckpoint(projection), { position: -1n, version: 2 });
});

test.serial('the stand-in answers the driver the way a standalone server does', async (t) => {
  const client = new MongoClient(standIn!.url, { useBigInt64: true });
  try {
    const collection = client
      .db('standin_check')
      .collection<{ _id: number; n?: bigint }>(`c_${randomUUID().slice(0, 8)}`);
    await collection.insertMany([{ _id: 1, n: 1n }, { _id: 2, n: 2n }, { _id: 3 }]);
    const error = await t.throwsAsync(collection.insertMany([{ _id: 4 }, { _id: 1 }, { _id: 5 }]));
    t.like(error, { code: 11000, result: { insertedCount: 1 } }, 'ordered inserts stop at the first write error');
    t.deepEqual(await collection.find({}, { batchSize: 1, sort: { _id: -1 } }).toArray(), [
      { _id: 4 },
      { _id: 3 },
      { _id: 2, n: 2n },
      { _id: 1, n: 1n },
    ]);
    t.is(await collection.estimatedDocumentCount(), 4);
    t.is(await collection.countDocuments({ n: { $gte: 1n } }, { skip: 1 }), 1);
    const upserted = await collection.updateOne(
      { _id: 9 },
      { $set: { n: 9n }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    t.is(upserted.upsertedId, 9);
    t.deepEqual(await collection.findOne({ _id: 9 }), { _id: 9, n: 9n, created: true });
    const unknown = await t.throwsAsync(client.db('admin').command({ frobnicate: 1 }));
    t.true(unknown instanceof MongoServerError);
    t.like(unknown, { code: 59 });
  } finally {
    await client.close();
  }
});

test.serial(
  "the stand-in's findAndModify takes the first match in sort order, atomically, with the server's option rules",
  async (t) => {
    const client = new MongoClient(standIn!.url, { useBigInt64: true });
    try {
      const collection = client
        .db('standin_check')
        .collection<{ _id: number; n: number; seen?: boolean }>(`c_${randomUUID().slice(0, 8)}`);
      await collection.insertMany([
        { _id: 1, n: 30 },
        { _id: 2, n: 10 },
        { _id: 3, n: 20 },
      ]);
      t.deepEqual(await collection.findOneAndDelete({ n: { $gte: 15 } }, { sort: { n: 1 } }), { _id: 3, n: 20 });
      t.is(await collection.findOneAndDelete({ _id: 3 }), null, 'a removed document is not found twice');
      t.deepEqual(
        await collection.findOneAndUpdate({ _id: 2 }, { $set: { seen: true } }),
        { _id: 2, n: 10 },
        'the document before the change',
      );
      t.deepEqual(
        await collection.findOneAndUpdate(
          { _id: 1 },
          { $inc: { n: 1 } },
          { returnDocument: 'after', projection: { n: 1 } },
        ),
        { _id: 1, n: 31 },
      );
      t.deepEqual(
        await collection.findOneAndUpdate({ _id: 7 }, { $set: { n: 7 } }, { upsert: true, returnDocument: 'after' }),
        { _id: 7, n: 7 },
      );
      t.deepEqual(await collection.findOneAndReplace({ _id: 7 }, { n: 8 }, { returnDocument: 'after' }), {
        _id: 7,
        n: 8,
      });
      const both = await t.throwsAsync(
        client
          .db('standin_check')
          .command({ findAndModify: collection.collectionName, query: {}, remove: true, update: { $set: { n: 1 } } }),
      );
      t.like(both, { code: 9 });
      const neither = await t.throwsAsync(
        client.db('standin_check').command({ findAndModify: collection.collectionName, query: {} }),
      );
      t.like(neither, { code: 9 });
      const removeNew = await t.throwsAsync(
        client
          .db('standin_check')
          .command({ findAndModify: collection.collectionName, query: {}, remove: true, new: true }),
      );
      t.like(removeNew, { code: 9 });
    } finally {
      await client.close();
    }
  },
);

test('ping on an unreachable server throws ReadStoreUnavailableError quickly', async (t) => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const store = await openMongoReadStore(
    `mongodb://127.0.0.1:${port}/?directConnection=true&serverSelectionTimeoutMS=300`,
  );
  const started = Date.now();
  try {
    const error = await t.throwsAsync(store.ping());
    t.true(error instanceof ReadStoreUnavailableError);
    t.true(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  } finally {
    await store.close();
  }
});
