// One contract, two stores: the embedded index always, and Milvus through the real SDK against the
// gRPC stand-in built from the SDK's own protos.
import test from 'ava';
import type { VectorRow, VectorStore } from '../src/gateways/runbook-search/vector-store.js';
import { embeddedVectorStore } from '../src/gateways/runbook-search/embedded-vector-store.js';
import { milvusVectorStore } from '../src/gateways/runbook-search/milvus-vector-store.js';
import { startMilvusStandin, type MilvusStandin } from './support/milvus-standin/server.js';

type Harness = { store: VectorStore; reopen(): VectorStore; standin?: MilvusStandin };

const stores: [name: string, open: () => Promise<Harness>][] = [
  [
    'embedded',
    async () => {
      const store = embeddedVectorStore();
      return { store, reopen: () => store };
    },
  ],
  [
    'milvus',
    async () => {
      const standin = await startMilvusStandin();
      const open = () =>
        milvusVectorStore({
          // No retries: a stand-in refusal should fail the test at once, not after back-off.
          address: standin.address,
          collection: 'runbooks',
          timeoutMs: 30_000,
          maxRetries: 0,
        });
      return { store: open(), reopen: open, standin };
    },
  ],
];

const rows: VectorRow[] = [
  { id: 'a#1', runbook: 'a', section: 'One', text: 'alpha', vector: [1, 0, 0] },
  { id: 'b#1', runbook: 'b', section: 'One', text: 'beta', vector: [0, 1, 0] },
  { id: 'c#1', runbook: 'c', section: 'Two', text: 'gamma', vector: [0.6, 0.8, 0] },
];

for (const [name, open] of stores) {
  const setup = async (t: { teardown(f: () => Promise<void>): void }) => {
    const h = await open();
    t.teardown(async () => {
      await h.store.close();
      await h.standin?.stop();
    });
    return h;
  };

  test(`${name}: a new collection is empty; upserted rows are counted, a row written again once`, async (t) => {
    const { store } = await setup(t);
    await store.ensureCollection(3);
    t.is(await store.count(), 0);
    await store.upsert(rows);
    t.is(await store.count(), 3);
    await store.upsert(rows.slice(0, 2));
    t.is(await store.count(), 3, 'a row written again replaces itself');
  });

  test(`${name}: search ranks by cosine similarity, best first, with the stored fields`, async (t) => {
    const { store } = await setup(t);
    await store.ensureCollection(3);
    await store.upsert(rows);
    // Searches run at the collection's Bounded consistency and may miss a write this recent (so
    // does the stand-in); the index is searched once its strong count is complete.
    t.is(await store.count(), 3);
    const hits = await store.search([2, 0, 0], 2);
    t.deepEqual(
      hits.map((h) => [h.runbook, h.section, h.text]),
      [
        ['a', 'One', 'alpha'],
        ['c', 'Two', 'gamma'],
      ],
    );
    t.true(Math.abs(hits[0]!.score - 1) < 1e-6);
    t.true(Math.abs(hits[1]!.score - 0.6) < 1e-6);
    t.is((await store.search([0, 0, 1], 10)).length, 3);
  });

  test(`${name}: ensureCollection is repeatable with the same dim and refuses another`, async (t) => {
    const { store, reopen } = await setup(t);
    await store.ensureCollection(3);
    await store.upsert(rows.slice(0, 1));
    const again = reopen(); // a restart, for Milvus: a new client over the same server
    await again.ensureCollection(3);
    t.is(await again.count(), 1);
    await t.throwsAsync(again.ensureCollection(4), { message: /3-dimensional vectors, not 4/ });
    if (again !== store) await again.close();
  });

  test(`${name}: wrong-dimension vectors and out-of-range topK are refused and change nothing`, async (t) => {
    const { store } = await setup(t);
    await store.ensureCollection(3);
    await t.throwsAsync(store.upsert([{ ...rows[0]!, vector: [1, 0] }]), { message: /expected 3/ });
    t.is(await store.count(), 0);
    await t.throwsAsync(store.search([1, 0], 1), { message: /expected 3/ });
    await t.throwsAsync(store.search([1, 0, 0], 0), { instanceOf: RangeError });
    await t.throwsAsync(store.search([1, 0, 0], 51), { instanceOf: RangeError });
  });
}

test('milvus: an unreachable server fails the call, not the process', async (t) => {
  const store = milvusVectorStore({ address: '127.0.0.1:1', collection: 'rb', timeoutMs: 2_000, maxRetries: 0 });
  t.teardown(() => store.close());
  await t.throwsAsync(store.ensureCollection(3));
});

test('milvus: the collection has the declared schema, a COSINE index, and is loaded before use', async (t) => {
  const standin = await startMilvusStandin();
  const store = milvusVectorStore({ address: standin.address, collection: 'rb', maxRetries: 0 });
  t.teardown(async () => {
    await store.close();
    await standin.stop();
  });
  await store.ensureCollection(8);
  const c = standin.collections.get('rb')!;
  t.deepEqual(
    c.fields.map((f) => [f.name, f.data_type]),
    [
      ['id', 'VarChar'],
      ['runbook', 'VarChar'],
      ['section', 'VarChar'],
      ['text', 'VarChar'],
      ['vector', 'FloatVector'],
    ],
  );
  t.true(c.fields[0]!.is_primary_key);
  t.is(c.fields[4]!.type_params?.find((p) => p.key === 'dim')?.value, '8');
  t.true(c.indexed && c.loaded);
  t.deepEqual(
    standin.calls.filter((n) => ['CreateCollection', 'CreateIndex', 'LoadCollection'].includes(n)),
    ['CreateCollection', 'CreateIndex', 'LoadCollection'],
  );
});
