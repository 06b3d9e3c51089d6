/**
 * The read store contract: one suite, run against every reachable adapter
 * (test/readstore-*.test.ts). Collection names are random so it can run on a real server.
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type Doc, type ReadModelWriter, type ReadStore } from '../../src/readstore/port.js';

export interface ReadStoreTarget {
  open(): Promise<ReadStore>;
  skipReason?: string;
}

const collectionName = () => `contract_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

const people: Doc[] = [
  {
    id: 'a',
    tenantId: 't1',
    name: 'Ada',
    age: 36,
    tags: ['math', 'eng'],
    active: true,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  {
    id: 'b',
    tenantId: 't1',
    name: 'Bob',
    age: 25,
    tags: ['ops'],
    active: false,
    createdAt: '2026-01-02T00:00:00.000Z',
  },
  { id: 'c', tenantId: 't1', name: 'Cy', age: 41, tags: ['eng'], active: true, createdAt: '2026-01-03T00:00:00.000Z' },
  { id: 'd', tenantId: 't2', name: 'Di', age: 30, tags: [], active: true, createdAt: '2026-01-04T00:00:00.000Z' },
  {
    id: 'e',
    tenantId: 't1',
    name: 'Eve',
    age: 25,
    tags: ['sec', 'eng'],
    active: true,
    createdAt: '2026-01-05T00:00:00.000Z',
  },
];

async function seed(store: ReadStore, collection: string, docs: Doc[] = people) {
  let position = 0n;
  await store.applyBatch(
    { projection: `seed-${collection}`, version: 1 },
    docs.map((doc) => ({ position: position++, doc })),
    async (event, writer) => writer.upsert(collection, event.doc),
  );
}

export function readStoreContract(label: string, target: ReadStoreTarget): void {
  if (target.skipReason) {
    test.skip(`[${label}] read store contract skipped: ${target.skipReason}`, () => {});
    return;
  }
  const withStore = (
    title: string,
    body: (store: ReadStore, t: ExecutionContext, collection: string) => Promise<void>,
  ) =>
    test.serial(`[${label}] ${title}`, async (t) => {
      const store = await target.open();
      const collection = collectionName();
      try {
        await body(store, t, collection);
      } finally {
        await store.dropCollection(collection).catch(() => {});
        await store.close();
      }
    });

  withStore('upsert, get, patch and delete by id', async (store, t, c) => {
    await seed(store, c);
    t.like(await store.get(c, 'a'), { id: 'a', name: 'Ada', tags: ['math', 'eng'], active: true });
    t.is(await store.get(c, 'zzz'), null);
    await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 10n }], async (_e, w) => {
      await w.patch(c, 'a', { name: 'Ada L.', age: 37 });
      await w.patch(c, 'missing', { name: 'nobody' });
      await w.delete(c, 'b');
    });
    t.like(await store.get(c, 'a'), { name: 'Ada L.', age: 37, tags: ['math', 'eng'] });
    t.is(await store.get(c, 'missing'), null, 'patch does not create');
    t.is(await store.get(c, 'b'), null);
    await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 11n }], async (_e, w) => {
      await w.upsert(c, { id: 'a', tenantId: 't1', name: 'Replaced' });
    });
    const replaced = await store.get(c, 'a');
    t.is(replaced?.name, 'Replaced');
    t.false('age' in (replaced ?? {}), 'upsert replaces the whole document');
  });

  withStore('find with equality, $in, $ne, ranges and array-contains', async (store, t, c) => {
    await seed(store, c);
    const ids = async (filter: Parameters<ReadStore['find']>[1]) =>
      (await store.find(c, filter, { sort: [['id', 'asc']] })).map((d) => d.id);
    t.deepEqual(await ids({ tenantId: 't1' }), ['a', 'b', 'c', 'e']);
    t.deepEqual(await ids({ tenantId: 't1', active: true }), ['a', 'c', 'e']);
    t.deepEqual(await ids({ tenantId: 't1', active: false }), ['b']);
    t.deepEqual(await ids({ name: { $in: ['Bob', 'Di', 'Nobody'] } }), ['b', 'd']);
    t.deepEqual(await ids({ tenantId: 't1', name: { $ne: 'Bob' } }), ['a', 'c', 'e']);
    t.deepEqual(await ids({ age: { $gte: 30, $lt: 41 } }), ['a', 'd']);
    t.deepEqual(await ids({ createdAt: { $gt: '2026-01-02T00:00:00.000Z', $lte: '2026-01-04T00:00:00.000Z' } }), [
      'c',
      'd',
    ]);
    t.deepEqual(await ids({ tags: { $contains: 'eng' } }), ['a', 'c', 'e']);
    t.deepEqual(await ids({ missingField: null, tenantId: 't2' }), ['d']);
    t.is(await store.count(c, { tenantId: 't1' }), 4);
    t.is(await store.count(c, { tags: { $contains: 'nope' } }), 0);
  });

  withStore('sort, limit and keyset continuation visit every document once', async (store, t, c) => {
    await seed(store, c);
    const sort = [
      ['age', 'desc'],
      ['name', 'asc'],
    ] as const;
    const all = await store.find(c, {}, { sort });
    t.deepEqual(
      all.map((d) => d.id),
      ['c', 'a', 'd', 'b', 'e'],
    );
    const seen: string[] = [];
    let after: { values: (string | number | boolean)[]; id: string } | undefined;
    for (;;) {
      const page = await store.find(c, {}, { sort, limit: 2, after });
      if (page.length === 0) break;
      seen.push(...page.map((d) => d.id));
      const last = page.at(-1)!;
      after = { values: [last.age as number, last.name as string], id: last.id };
    }
    t.deepEqual(seen, ['c', 'a', 'd', 'b', 'e']);
    // Ties on every sort key fall back to id.
    const byAge = await store.find(c, { age: 25 }, { sort: [['age', 'asc']], limit: 1 });
    t.deepEqual(
      byAge.map((d) => d.id),
      ['b'],
    );
    const next = await store.find(
      c,
      { age: 25 },
      { sort: [['age', 'asc']], limit: 1, after: { values: [25], id: 'b' } },
    );
    t.deepEqual(
      next.map((d) => d.id),
      ['e'],
    );
    // The id tie-breaker follows the direction of the last sort key.
    const newestFirst = await store.find(c, { age: 25 }, { sort: [['age', 'desc']] });
    t.deepEqual(
      newestFirst.map((d) => d.id),
      ['e', 'b'],
    );
    const afterE = await store.find(c, { age: 25 }, { sort: [['age', 'desc']], after: { values: [25], id: 'e' } });
    t.deepEqual(
      afterE.map((d) => d.id),
      ['b'],
    );
  });

  withStore('delete-many removes what matches and reports how many', async (store, t, c) => {
    await seed(store, c);
    let removed = 0;
    // After the seed's positions (0-4): an earlier position would be a redelivery, which guarded writes skip.
    await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 10n }], async (_e, w) => {
      removed = await w.deleteMany(c, { tenantId: 't1', active: true });
    });
    t.is(removed, 3);
    t.deepEqual(
      (await store.find(c, {}, { sort: [['id', 'asc']] })).map((d) => d.id),
      ['b', 'd'],
    );
  });

  withStore('unique indexes reject a second document with the same key', async (store, t, c) => {
    await store.ensureIndexes(c, [{ name: 'tenant_email', fields: ['tenantId', 'email'], unique: true }]);
    await store.ensureIndexes(c, [{ name: 'tenant_email', fields: ['tenantId', 'email'], unique: true }]);
    await seed(store, c, [
      { id: '1', tenantId: 't', email: 'x@y.z' },
      { id: '2', tenantId: 'u', email: 'x@y.z' },
    ]);
    const error = await t.throwsAsync(
      store.applyBatch({ projection: 'p', version: 1 }, [{ position: 5n }], async (_e, w) =>
        w.upsert(c, { id: '3', tenantId: 't', email: 'x@y.z' }),
      ),
    );
    t.true(error instanceof DuplicateKeyError);
    t.is(await store.get(c, '3'), null);
  });

  withStore('checkpoints are stored with the batch and per projection', async (store, t, c) => {
    const projection = `proj-${c}`;
    t.is(await store.getCheckpoint(projection), null);
    await store.applyBatch({ projection, version: 3 }, [{ position: 7n }, { position: 9n }], async (e, w) =>
      w.upsert(c, { id: String(e.position), tenantId: 't' }),
    );
    t.deepEqual(await store.getCheckpoint(projection), { position: 9n, version: 3 });
    await store.setCheckpoint(projection, { position: 12n, version: 4 });
    t.deepEqual(await store.getCheckpoint(projection), { position: 12n, version: 4 });
    t.is(await store.getCheckpoint(`${projection}-other`), null);
  });

  withStore('re-applying an already applied event leaves the same read model', async (store, t, c) => {
    const apply = async (
      e: { position: bigint; n: number },
      w: Parameters<Parameters<ReadStore['applyBatch']>[2]>[1],
    ) => {
      const current = await w.get(c, 'counter');
      await w.upsert(c, { id: 'counter', tenantId: 't', n: ((current?.n as number) ?? 0) + e.n });
    };
    await store.applyBatch(
      { projection: 'p', version: 1 },
      [
        { position: 1n, n: 1 },
        { position: 2n, n: 10 },
      ],
      apply,
    );
    // The same events again (a redelivery after a crash between write and checkpoint).
    await store.applyBatch(
      { projection: 'p', version: 1 },
      [
        { position: 1n, n: 1 },
        { position: 2n, n: 10 },
      ],
      apply,
    );
    t.is((await store.get(c, 'counter'))?.n, 11);
  });

  withStore(
    'a delete leaves a tombstone: re-applying an older upsert does not bring the document back',
    async (store, t, c) => {
      await store.ensureIndexes(c, [{ name: 'tenant_email', fields: ['tenantId', 'email'], unique: true }]);
      const batch = (position: bigint, write: (w: ReadModelWriter) => Promise<unknown>) =>
        store.applyBatch({ projection: `p-${c}`, version: 1 }, [{ position }], async (_e, w) => void (await write(w)));
      const ada = { id: 'a', tenantId: 't', email: 'ada@x.y', name: 'Ada' };
      const bob = { id: 'b', tenantId: 't', email: 'bob@x.y', name: 'Bob' };
      await batch(1n, async (w) => {
        await w.upsert(c, ada);
        await w.upsert(c, bob);
      });
      await batch(2n, (w) => w.delete(c, 'a'));
      await batch(3n, (w) => w.deleteMany(c, { name: 'Bob' }));
      // The first batch again, as after a crash before its checkpoint, or late.
      await batch(1n, async (w) => {
        await w.upsert(c, ada);
        await w.upsert(c, bob);
        await w.patch(c, 'a', { name: 'patched' });
      });
      t.is(await store.get(c, 'a'), null, 'deleted by delete');
      t.is(await store.get(c, 'b'), null, 'deleted by deleteMany');
      t.deepEqual(await store.find(c, { tenantId: 't' }), []);
      t.is(await store.count(c, {}), 0, 'tombstones are not counted');
      // An upsert at a position after the delete recreates; the tombstone holds no unique key.
      await batch(4n, async (w) => {
        await w.upsert(c, { id: 'a2', tenantId: 't', email: 'ada@x.y', name: 'Ada again' });
        await w.upsert(c, { ...ada, name: 'Ada back' });
      }).catch((error: unknown) => t.true(error instanceof DuplicateKeyError, 'a2 and a share the email'));
      await batch(5n, (w) => w.upsert(c, { ...ada, email: 'ada@new.y', name: 'Ada back' }));
      t.like(await store.get(c, 'a'), { name: 'Ada back' });
      t.is(await store.count(c, { tenantId: 't' }), (await store.find(c, { tenantId: 't' })).length);
    },
  );

  withStore('tombstones follow their collection through a rebuild swap and a drop', async (store, t, c) => {
    const shadow = `${c}_rebuild`;
    const batch = (collection: string, position: bigint, write: (w: ReadModelWriter) => Promise<unknown>) =>
      store.applyBatch(
        { projection: `p-${collection}`, version: 1 },
        [{ position }],
        async (_e, w) => void (await write(w)),
      );
    await batch(shadow, 1n, (w) => w.upsert(shadow, { id: 'a', tenantId: 't' }));
    await batch(shadow, 2n, (w) => w.delete(shadow, 'a'));
    await store.replaceCollection(shadow, c);
    await batch(c, 1n, (w) => w.upsert(c, { id: 'a', tenantId: 't' }));
    t.is(await store.get(c, 'a'), null, 'the rebuilt tombstone guards the swapped-in collection');
    await store.dropCollection(c);
    await batch(c, 1n, (w) => w.upsert(c, { id: 'a', tenantId: 't' }));
    t.like(await store.get(c, 'a'), { id: 'a' }, 'a dropped collection starts without tombstones');
  });

  withStore('a stale delete leaves a newer document alone', async (store, t, c) => {
    const batch = (position: bigint, write: (w: ReadModelWriter) => Promise<unknown>) =>
      store.applyBatch({ projection: `p-${c}`, version: 1 }, [{ position }], async (_e, w) => void (await write(w)));
    await batch(5n, (w) => w.upsert(c, { id: 'a', tenantId: 't', name: 'five' }));
    await batch(4n, (w) => w.delete(c, 'a'));
    await batch(4n, (w) => w.deleteMany(c, { tenantId: 't' }));
    t.like(await store.get(c, 'a'), { name: 'five' });
  });

  withStore('one event may write a document several times, and re-applying it changes nothing', async (store, t, c) => {
    // Like a projection that patches one document twice for one event (e.g. two membership changes).
    const apply = async (e: { position: bigint; members: string[] }, w: ReadModelWriter) => {
      if (!(await w.get(c, 'g'))) await w.upsert(c, { id: 'g', tenantId: 't', memberIds: [], changes: 0 });
      for (const member of e.members) {
        const group = (await w.get(c, 'g'))!;
        await w.patch(c, 'g', {
          memberIds: [...(group.memberIds as string[]), member],
          changes: (group.changes as number) + 1,
        });
      }
    };
    const events = [
      { position: 1n, members: ['u1', 'u2'] },
      { position: 2n, members: ['u3', 'u4', 'u5'] },
    ];
    await store.applyBatch({ projection: `p-${c}`, version: 1 }, events, apply);
    const once = await store.get(c, 'g');
    t.like(once, { memberIds: ['u1', 'u2', 'u3', 'u4', 'u5'], changes: 5 }, 'every write of an event applies');
    await store.applyBatch({ projection: `p-${c}`, version: 1 }, events, apply);
    await store.applyBatch({ projection: `p-${c}`, version: 1 }, [events[1]!], apply);
    t.deepEqual(await store.get(c, 'g'), once, 'a redelivered event writes nothing twice');
  });

  withStore('replaceCollection swaps a rebuilt collection in', async (store, t, c) => {
    const shadow = `${c}_rebuild`;
    await seed(store, c, [{ id: 'old', tenantId: 't' }]);
    await seed(store, shadow, [{ id: 'new', tenantId: 't' }]);
    await store.replaceCollection(shadow, c);
    t.deepEqual(
      (await store.find(c, {})).map((d) => d.id),
      ['new'],
    );
    t.deepEqual(await store.find(shadow, {}), []);
  });

  withStore('replaceCollections switches every collection of a rebuild in', async (store, t, c) => {
    const other = `${c}_other`;
    await seed(store, c, [{ id: 'old', tenantId: 't' }]);
    await seed(store, other, [{ id: 'old', tenantId: 't' }]);
    await seed(store, `${c}_rebuild`, [{ id: 'new', tenantId: 't' }]);
    await seed(store, `${other}_rebuild`, [{ id: 'new', tenantId: 't' }]);
    await store.replaceCollections([
      { source: `${c}_rebuild`, target: c },
      { source: `${other}_rebuild`, target: other },
    ]);
    t.deepEqual(
      (await store.find(c, {})).map((d) => d.id),
      ['new'],
    );
    t.deepEqual(
      (await store.find(other, {})).map((d) => d.id),
      ['new'],
    );
    t.deepEqual(await store.find(`${c}_rebuild`, {}), [], 'the previous version is dropped');
  });

  withStore('within a batch, every read sees the writes of the events before it', async (store, t, c) => {
    const seen: unknown[] = [];
    await store.applyBatch(
      { projection: `p-${c}`, version: 1 },
      [{ position: 1n }, { position: 2n }, { position: 3n }, { position: 4n }],
      async (event, writer) => {
        if (event.position === 1n) await writer.upsert(c, { id: 'a', tenantId: 't', n: 1 });
        if (event.position === 2n) await writer.patch(c, 'a', { n: 2 });
        if (event.position === 3n) {
          seen.push((await writer.get(c, 'a'))?.n, (await writer.find(c, { n: 2 })).length, await writer.count(c, {}));
          await writer.patch(c, 'a', { n: 3 });
        }
        if (event.position === 4n) seen.push(await writer.deleteMany(c, { n: 3 }));
      },
    );
    t.deepEqual(seen, [2, 1, 1, 1]);
    t.is(await store.get(c, 'a'), null);
  });

  withStore('ping succeeds on a reachable store', async (store, t) => {
    await t.notThrowsAsync(store.ping());
  });
}
