import test from 'ava';
import { localEmbeddings, type Embeddings } from '../src/gateways/runbook-search/embeddings.js';
import { embeddedVectorStore } from '../src/gateways/runbook-search/embedded-vector-store.js';
import { milvusVectorStore } from '../src/gateways/runbook-search/milvus-vector-store.js';
import { loadRunbookChunks, startRunbookIndex } from '../src/gateways/runbook-search/runbook-index.js';
import { startMilvusStandin } from './support/milvus-standin/server.js';

// Counts embedding calls so "inserts nothing" also means "embeds nothing" on a warm start.
function countingEmbeddings(): Embeddings & { texts: number } {
  const inner = localEmbeddings();
  const e = {
    dim: inner.dim,
    model: inner.model,
    texts: 0,
    embed: async (xs: string[]) => {
      e.texts += xs.length;
      return inner.embed(xs);
    },
  };
  return e;
}

test('embedded: the first start indexes every runbook chunk, a second start over the same store inserts nothing', async (t) => {
  const total = (await loadRunbookChunks()).length;
  const store = embeddedVectorStore();
  const first = await startRunbookIndex(store, localEmbeddings());
  t.is(first.inserted, total);
  const embeddings = countingEmbeddings();
  const second = await startRunbookIndex(store, embeddings);
  t.is(second.inserted, 0);
  t.is(embeddings.texts, 0);
  t.is(await store.count(), total);
});

test('milvus: a restart against the same server inserts nothing and still answers with citations', async (t) => {
  const standin = await startMilvusStandin();
  const open = () => milvusVectorStore({ address: standin.address, collection: 'runbooks', maxRetries: 0 });
  const a = open();
  t.teardown(async () => {
    await standin.stop();
  });
  const first = await startRunbookIndex(a, localEmbeddings());
  t.true(first.inserted > 0);
  await a.close();

  const b = open();
  t.teardown(() => b.close());
  const writes = standin.calls.filter((c) => c === 'Insert' || c === 'Upsert').length;
  const second = await startRunbookIndex(b, localEmbeddings());
  t.is(second.inserted, 0);
  t.is(standin.calls.filter((c) => c === 'Insert' || c === 'Upsert').length, writes);
  t.is(await b.count(), first.inserted);

  const [hit] = await second.searchRunbooks('queries waiting in the queue', 1);
  t.is(hit?.runbook, 'queue-waits');
  t.is(hit?.citation, `queue-waits § ${hit?.section}`);
});

test('searchRunbooks cites runbook and section and refuses empty or oversized queries', async (t) => {
  const index = await startRunbookIndex(embeddedVectorStore(), localEmbeddings());
  const hits = await index.searchRunbooks('resume a paused cluster', 3);
  t.is(hits.length, 3);
  t.is(hits[0]!.runbook, 'paused-cluster');
  for (const h of hits) t.is(h.citation, `${h.runbook} § ${h.section}`);
  t.true(hits[0]!.score >= hits[1]!.score && hits[1]!.score >= hits[2]!.score);
  await t.throwsAsync(index.searchRunbooks('   '), { instanceOf: RangeError });
  await t.throwsAsync(index.searchRunbooks('x'.repeat(2_001)), { instanceOf: RangeError });
});

// Embeddings that fail once, on the call that embeds the second batch: a build cut off half-way.
function failingOnceAt(call: number): Embeddings {
  const inner = localEmbeddings();
  let calls = 0;
  return {
    dim: inner.dim,
    model: inner.model,
    embed: async (xs: string[]) => {
      if (++calls === call) throw new Error('embeddings endpoint down');
      return inner.embed(xs);
    },
  };
}

test('milvus: a build cut off half-way is completed by the retry, with every chunk exactly once', async (t) => {
  const standin = await startMilvusStandin();
  const store = milvusVectorStore({ address: standin.address, collection: 'runbooks', maxRetries: 0 });
  t.teardown(async () => {
    await store.close();
    await standin.stop();
  });
  const chunks = await loadRunbookChunks();
  const embeddings = failingOnceAt(2);
  await t.throwsAsync(startRunbookIndex(store, embeddings, { batchSize: 8 }), { message: 'embeddings endpoint down' });
  t.is(standin.collections.get('runbooks')!.rows().length, 8, 'the first batch was written');

  const retried = await startRunbookIndex(store, embeddings, { batchSize: 8 });
  const rows = standin.collections.get('runbooks')!.rows();
  t.is(rows.length, chunks.length, 'complete: not left at the first batch');
  t.is(new Set(rows.map((r) => r.id)).size, chunks.length, 'no chunk twice');
  t.is(retried.inserted, chunks.length);
  t.is(await store.count(), chunks.length);
});

test('milvus: a complete index is left alone at start; one missing a chunk is completed without duplicates', async (t) => {
  const standin = await startMilvusStandin();
  const store = milvusVectorStore({ address: standin.address, collection: 'runbooks', maxRetries: 0 });
  t.teardown(async () => {
    await store.close();
    await standin.stop();
  });
  const chunks = await loadRunbookChunks();
  await startRunbookIndex(store, localEmbeddings());
  const collection = standin.collections.get('runbooks')!;
  const writes = () => standin.calls.filter((c) => c === 'Insert' || c === 'Upsert').length;
  const before = writes();
  t.is((await startRunbookIndex(store, countingEmbeddings())).inserted, 0);
  t.is(writes(), before, 'nothing written when the strong count matches');

  collection.entities.at(-1)!.deletedAt = collection.clock; // one chunk lost (say, a write that never landed)
  const again = await startRunbookIndex(store, localEmbeddings());
  t.is(again.inserted, chunks.length);
  t.is(collection.rows().length, chunks.length);
  t.is(new Set(collection.rows().map((r) => r.id)).size, chunks.length);
});

test('an index still short of chunks after writing them all is not declared complete', async (t) => {
  const inner = embeddedVectorStore();
  // A store that acknowledges every write but loses the last row of each batch.
  const lossy = { ...inner, upsert: (rows: Parameters<typeof inner.upsert>[0]) => inner.upsert(rows.slice(0, -1)) };
  const total = (await loadRunbookChunks()).length;
  await t.throwsAsync(startRunbookIndex(lossy, localEmbeddings(), { batchSize: total }), {
    message: `the runbook index holds ${total - 1} of ${total} chunks after writing them all`,
  });
});
