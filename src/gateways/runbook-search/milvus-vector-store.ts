// The vector store on Milvus through @zilliz/milvus2-sdk-node. Scores come back as cosine
// similarities (metric COSINE), the same scale the embedded store uses.
//
// The SDK does not throw on most server-side failures; it returns a status. Every call goes through
// `ok()` so a refused operation becomes an error here instead of a silently empty answer.
//
// Writes are upserts: Milvus's insert does not check primary keys, so writing a chunk again would
// add a second entity ("Insert Entities", https://milvus.io/docs/insert-update-delete.md); upsert
// replaces it ("Upsert Entities", https://milvus.io/docs/upsert-entities.md). The count asks for
// Strong consistency by name: the collection's default is Bounded, whose reads may miss recent
// writes ("Consistency Level", https://milvus.io/docs/consistency.md), and the SDK's `count()`
// sends no level at all (it is Strong only through the proto's default of 0 and Milvus's legacy
// handling of requests without `use_default_consistency`), so it goes through `query` instead.

import { ConsistencyLevelEnum, DataType, MilvusClient } from '@zilliz/milvus2-sdk-node';
import { checkTopK, type VectorHit, type VectorStore } from './vector-store.js';

export interface MilvusVectorStoreConfig {
  address: string;
  token?: string;
  collection: string;
  /** Per-call deadline; the SDK otherwise waits forever for a silent server. */
  timeoutMs?: number;
  /** The SDK retries failed calls with back-off by default; tests set 0 to fail fast. */
  maxRetries?: number;
}

// Field bounds: chunk ids and text are bounded by chunks.ts (MAX_CHUNK_CHARS), with headroom.
const MAX_ID = 256;
const MAX_NAME = 256;
const MAX_TEXT = 8_192;
const OUTPUT_FIELDS = ['runbook', 'section', 'text'];

interface StatusLike {
  error_code?: string | number;
  code?: number;
  reason?: string;
}

function ok<T extends { status?: StatusLike } | StatusLike>(what: string, res: T): T {
  const s: StatusLike = ('status' in res && res.status ? res.status : res) as StatusLike;
  const failed =
    (s.error_code !== undefined && s.error_code !== 'Success' && s.error_code !== 0) ||
    (s.code !== undefined && s.code !== 0);
  if (failed) throw new Error(`milvus ${what} failed: ${s.reason || String(s.error_code ?? s.code)}`);
  return res;
}

export function milvusVectorStore(config: MilvusVectorStoreConfig): VectorStore & { release(): Promise<void> } {
  const timeout = config.timeoutMs ?? 10_000;
  const client = new MilvusClient({
    address: config.address,
    token: config.token,
    timeout,
    maxRetries: config.maxRetries,
    // The SDK logs every request and response at debug level and sends client telemetry
    // heartbeats to the server; neither is wanted in the platform's own logs.
    logLevel: 'warn',
    telemetry: { enabled: false },
  });
  // The client starts connecting in its constructor and nobody awaits that promise until the first
  // call: an unreachable server would be an unhandled rejection that ends the process. Marking it
  // handled here is enough; every later call awaits the same promise and reports the failure.
  client.connectPromise.catch(() => undefined);
  const collection_name = config.collection;
  let dim: number | undefined;

  return {
    async ensureCollection(d) {
      if (!Number.isInteger(d) || d < 1) throw new RangeError('dim must be a positive integer');
      const has = ok('hasCollection', await client.hasCollection({ collection_name }));
      if (!has.value) {
        ok(
          'createCollection',
          await client.createCollection({
            collection_name,
            fields: [
              { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: MAX_ID },
              { name: 'runbook', data_type: DataType.VarChar, max_length: MAX_NAME },
              { name: 'section', data_type: DataType.VarChar, max_length: MAX_NAME },
              { name: 'text', data_type: DataType.VarChar, max_length: MAX_TEXT },
              { name: 'vector', data_type: DataType.FloatVector, dim: d },
            ],
          }),
        );
        // FLAT is exact search: the runbook corpus is tiny, and exact results keep both stores in agreement.
        ok(
          'createIndex',
          await client.createIndex({
            collection_name,
            field_name: 'vector',
            index_type: 'FLAT',
            metric_type: 'COSINE',
          }),
        );
      } else {
        // An existing collection built for another embedding model would give meaningless scores.
        const described = ok('describeCollection', await client.describeCollection({ collection_name }));
        const field = described.schema.fields.find((f) => f.name === 'vector');
        const existing = Number(field?.dim ?? field?.type_params?.find((p) => p.key === 'dim')?.value);
        if (existing !== d)
          throw new Error(`milvus collection ${collection_name} holds ${existing}-dimensional vectors, not ${d}`);
      }
      ok('loadCollection', await client.loadCollection({ collection_name }));
      dim = d;
    },
    async count() {
      const res = ok(
        'count',
        await client.query({
          collection_name,
          output_fields: ['count(*)'],
          consistency_level: ConsistencyLevelEnum.Strong,
        }),
      );
      return Number(res.data[0]?.['count(*)']);
    },
    async upsert(rows) {
      if (dim === undefined) throw new Error('collection not ready: call ensureCollection first');
      for (const r of rows)
        if (r.vector.length !== dim)
          throw new Error(`vector for ${r.id} has ${r.vector.length} dimensions, expected ${dim}`);
      if (rows.length === 0) return;
      const res = ok('upsert', await client.upsert({ collection_name, data: rows.map((r) => ({ ...r })) }));
      if (Number(res.upsert_cnt) !== rows.length)
        throw new Error(`milvus upserted ${res.upsert_cnt} of ${rows.length} rows`);
    },
    async search(vector, topK) {
      if (dim === undefined) throw new Error('collection not ready: call ensureCollection first');
      checkTopK(topK);
      if (vector.length !== dim) throw new Error(`query vector has ${vector.length} dimensions, expected ${dim}`);
      const res = ok(
        'search',
        await client.search({
          collection_name,
          anns_field: 'vector',
          data: vector,
          limit: topK,
          metric_type: 'COSINE',
          output_fields: OUTPUT_FIELDS,
        }),
      );
      return (res.results as Record<string, unknown>[]).map(
        (r): VectorHit => ({
          runbook: String(r.runbook),
          section: String(r.section),
          text: String(r.text),
          score: Number(r.score),
        }),
      );
    },
    /** Frees the server's memory for the collection; only for an owner shutting it down for good. */
    async release() {
      ok('releaseCollection', await client.releaseCollection({ collection_name }));
    },
    async close() {
      await client.closeConnection();
    },
  };
}
