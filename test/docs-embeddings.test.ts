import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localEmbed, localEmbeddings } from '../src/gateways/runbook-search/embeddings.js';
import { httpEmbeddings } from '../src/gateways/runbook-search/http-embeddings.js';
import { embeddedVectorStore } from '../src/gateways/runbook-search/embedded-vector-store.js';
import { startRunbookIndex } from '../src/gateways/runbook-search/runbook-index.js';

test('local embedding: deterministic, fixed dimension, unit length', async (t) => {
  const e = localEmbeddings(64);
  const [a, b] = await e.embed(['Queries waiting in the queue', 'Queries waiting in the queue']);
  t.deepEqual(a, b);
  t.is(a!.length, 64);
  t.true(Math.abs(Math.hypot(...a!) - 1) < 1e-9);
  t.deepEqual(localEmbed('', 64), new Array(64).fill(0));
});

const relevance: [query: string, runbook: string][] = [
  ['queries waiting in the queue', 'queue-waits'],
  ['query spilling to disk', 'disk-spill'],
  ['cluster is paused and not accepting connections', 'paused-cluster'],
  ['rows unevenly distributed across slices', 'table-skew'],
  ['planner row estimates wrong, run ANALYZE', 'stale-statistics'],
  ['reclaim space after deletes with vacuum', 'vacuum'],
  ['when should I escalate an incident', 'escalation-practice'],
];

test('local embedding ranks the obviously relevant runbook first', async (t) => {
  const index = await startRunbookIndex(embeddedVectorStore(), localEmbeddings());
  for (const [query, runbook] of relevance) {
    const [first] = await index.searchRunbooks(query, 1);
    t.is(first?.runbook, runbook, query);
  }
});

function embeddingsServer(answer: (body: { model: string; input: string[] }) => unknown, status = 200) {
  const seen: { auth?: string; body: { model: string; input: string[] } }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
      if (raw.length > 1e6) req.destroy();
    });
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ auth: req.headers.authorization, body });
      res.writeHead(req.url === '/v1/embeddings' ? status : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(body)));
    });
  });
  return new Promise<{ url: string; seen: typeof seen; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        seen,
        close: () => server.close(),
      }),
    ),
  );
}

test('http embeddings: posts {model, input} with the key, batches, and orders by index', async (t) => {
  const srv = await embeddingsServer(({ input }) => ({
    data: input.map((s, i) => ({ index: i, embedding: [s.length, i] })).reverse(),
  }));
  t.teardown(srv.close);
  const e = httpEmbeddings({ url: `${srv.url}/`, model: 'm-1', dim: 2, apiKey: 'k', batchSize: 2 });
  t.deepEqual(await e.embed(['a', 'bb', 'ccc']), [
    [1, 0],
    [2, 1],
    [3, 0],
  ]);
  t.deepEqual(
    srv.seen.map((s) => s.body),
    [
      { model: 'm-1', input: ['a', 'bb'] },
      { model: 'm-1', input: ['ccc'] },
    ],
  );
  t.is(srv.seen[0]!.auth, 'Bearer k');
});

test('http embeddings: a wrong dimension, a short answer or an error status is refused', async (t) => {
  const wrongDim = await embeddingsServer(({ input }) => ({
    data: input.map((_, i) => ({ index: i, embedding: [1, 2, 3] })),
  }));
  const short = await embeddingsServer(() => ({ data: [] }));
  const failing = await embeddingsServer(() => ({ error: 'nope' }), 500);
  t.teardown(() => {
    wrongDim.close();
    short.close();
    failing.close();
  });
  await t.throwsAsync(httpEmbeddings({ url: wrongDim.url, model: 'm', dim: 2 }).embed(['x']), {
    message: /not 2 finite numbers/,
  });
  await t.throwsAsync(httpEmbeddings({ url: short.url, model: 'm', dim: 2 }).embed(['x']), {
    message: /0 vectors for 1 inputs/,
  });
  await t.throwsAsync(httpEmbeddings({ url: failing.url, model: 'm', dim: 2 }).embed(['x']), {
    message: /answered 500/,
  });
});
