import test from 'ava';
import { localEmbeddings, type Embeddings } from '../src/gateways/docs/embeddings.js';
import { embeddedVectorStore } from '../src/gateways/docs/embedded-vector-store.js';
import { milvusVectorStore } from '../src/gateways/docs/milvus-vector-store.js';
import { loadRunbookChunks, startRunbookIndex } from '../src/gateways/docs/runbook-index.js';
import { startMilvusStandin } from './support/milvus-standin/server.js';

// Counts embedding calls so "inserts nothing" also means "embeds nothing" on a warm start.
function countingEmbeddings(): Embeddings & { texts: number } {
  const inner = localEmbeddings();
  const e = { dim: inner.dim, model: inner.model, texts: 0, embed: async (xs: string[]) => { e.texts += xs.length; return inner.embed(xs); } };
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
  t.teardown(async () => { await standin.stop(); });
  const first = await startRunbookIndex(a, localEmbeddings());
  t.true(first.inserted > 0);
  await a.close();

  const b = open();
  t.teardown(() => b.close());
  const inserts = standin.calls.filter(c => c === 'Insert').length;
  const second = await startRunbookIndex(b, localEmbeddings());
  t.is(second.inserted, 0);
  t.is(standin.calls.filter(c => c === 'Insert').length, inserts);
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
