// A Milvus gRPC stand-in for tests: the real service definition (from the SDK's protos), a handful
// of calls implemented over in-memory collections with exact search, everything else answered
// UNIMPLEMENTED by grpc-js. Loopback only, bounded in collections, rows and message size, so a
// runaway test cannot eat the machine. `calls` records each RPC name so tests can assert on the
// protocol the adapter actually used.
//
// It keeps the two Milvus rules a vector index must be written against:
// - Insert does not deduplicate primary keys: inserting an id again adds a second entity, counted
//   and searched as such; Upsert replaces the entity with that id ("Upsert Entities",
//   https://milvus.io/docs/upsert-entities.md; "Insert Entities": Milvus does not check primary
//   keys for uniqueness, https://milvus.io/docs/insert-update-delete.md).
// - Reads run at a consistency level ("Consistency Level", https://milvus.io/docs/consistency.md):
//   Strong sees every acknowledged write; Bounded (the collection default the SDK creates, and what
//   its search sends), Session and Eventually may miss recent ones. Here a non-Strong read sees the
//   entities as of the previous read, so the first read after a write is stale. The level is the
//   collection's when the request sets `use_default_consistency`, otherwise its own
//   `consistency_level`, whose proto default is Strong (what Milvus's proxy does for such requests).

import * as grpc from '@grpc/grpc-js';
import { decodeQueryVectors, decodeSchema, milvusServiceDefinition } from './proto.js';

const MAX_COLLECTIONS = 16;
const MAX_ROWS = 10_000;
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

interface Field {
  name: string;
  data_type: string;
  is_primary_key?: boolean;
  type_params?: { key: string; value: string }[];
}
/** One stored entity: written at `at`, deleted (replaced by an upsert) at `deletedAt`. */
interface Entity {
  row: Record<string, unknown>;
  at: number;
  deletedAt?: number;
}
interface Collection {
  name: string;
  fields: Field[];
  schemaObject: Record<string, unknown>;
  indexed: boolean;
  loaded: boolean;
  consistency: string;
  entities: Entity[];
  /** Write clock, and the clock a non-Strong read sees (the state at the previous read). */
  clock: number;
  settled: number;
  /** The entities a Strong read sees now. */
  rows(): Record<string, unknown>[];
}

type Handler = (request: Record<string, unknown>) => unknown;

const OK = { error_code: 'Success', code: 0, reason: '' };
const fail = (reason: string, code = 100) => ({ error_code: 'UnexpectedError', code, reason });

export interface MilvusStandin {
  address: string;
  calls: string[];
  collections: Map<string, Collection>;
  stop(): Promise<void>;
}

export async function startMilvusStandin(): Promise<MilvusStandin> {
  const collections = new Map<string, Collection>();
  const calls: string[] = [];
  const named = (req: Record<string, unknown>) => collections.get(String(req.collection_name));

  const handlers: Record<string, Handler> = {
    Connect: () => ({ status: OK, server_info: { build_tags: 'standin' }, identifier: 1 }),
    HasCollection: (req) => ({ status: OK, value: collections.has(String(req.collection_name)) }),
    CreateCollection: (req) => {
      const name = String(req.collection_name);
      if (collections.has(name)) return fail(`collection ${name} already exists`);
      if (collections.size >= MAX_COLLECTIONS) return fail('too many collections');
      const schemaObject = decodeSchema(req.schema as Uint8Array);
      const fields = (schemaObject.fields as Field[]).map((f) => ({ ...f }));
      const consistency = typeof req.consistency_level === 'string' ? req.consistency_level : 'Bounded';
      const c: Collection = {
        name,
        fields,
        schemaObject,
        indexed: false,
        loaded: false,
        consistency,
        entities: [],
        clock: 0,
        settled: 0,
        rows: () => visible(c, c.clock),
      };
      collections.set(name, c);
      return OK;
    },
    DescribeCollection: (req) => {
      const c = named(req);
      if (!c) return { status: fail(`collection not found[collection=${String(req.collection_name)}]`, 100) };
      return {
        status: OK,
        schema: { ...c.schemaObject, fields: c.fields.map((f, i) => ({ ...f, fieldID: 100 + i })) },
        collection_name: c.name,
        collectionID: 1,
        consistency_level: c.consistency,
      };
    },
    CreateIndex: (req) => {
      const c = named(req);
      if (!c) return fail('collection not found');
      c.indexed = true;
      return OK;
    },
    LoadCollection: (req) => {
      const c = named(req);
      if (!c) return fail('collection not found');
      if (!c.indexed) return fail('index not found'); // as real Milvus: no load without an index
      c.loaded = true;
      return OK;
    },
    GetLoadingProgress: (req) => ({ status: OK, progress: named(req)?.loaded ? 100 : 0 }),
    GetLoadState: (req) => ({ status: OK, state: named(req)?.loaded ? 'LoadStateLoaded' : 'LoadStateNotLoad' }),
    ReleaseCollection: (req) => {
      const c = named(req);
      if (c) c.loaded = false;
      return OK;
    },
    Insert: (req) => write(req, false),
    Upsert: (req) => write(req, true),
    Query: (req) => {
      const c = named(req);
      if (!c) return { status: fail('collection not found') };
      if (!c.loaded) return { status: fail('collection not loaded', 101) };
      const out = req.output_fields as string[];
      // Only count(*) is served: it is the one query the adapter makes.
      if (out.length !== 1 || out[0] !== 'count(*)' || req.expr)
        return { status: fail('stand-in serves count(*) only') };
      const count = read(c, req).length;
      return {
        status: OK,
        fields_data: [{ type: 'Int64', field_name: 'count(*)', scalars: { long_data: { data: [String(count)] } } }],
        output_fields: ['count(*)'],
        collection_name: c.name,
      };
    },
    Search: (req) => {
      const c = named(req);
      if (!c) return { status: fail('collection not found') };
      if (!c.loaded) return { status: fail('collection not loaded', 101) };
      const params = Object.fromEntries(
        (req.search_params as { key: string; value: string }[]).map((p) => [p.key, p.value]),
      );
      const topK = Number(params.topk ?? params.limit);
      const metric = String(params.metric_type ?? '').toUpperCase();
      if (metric !== 'COSINE' && metric !== 'IP')
        return { status: fail(`stand-in supports COSINE and IP, not ${metric}`) };
      const annsField = String(params.anns_field || c.fields.find((f) => f.data_type === 'FloatVector')!.name);
      const pk = c.fields.find((f) => f.is_primary_key)!.name;
      const queries = decodeQueryVectors(req.placeholder_group as Uint8Array);
      const outFields = (req.output_fields as string[]) ?? [];
      const ids: string[] = [],
        scores: number[] = [],
        topks: number[] = [];
      const picked: Record<string, unknown>[] = [];
      const rows = read(c, req);
      for (const q of queries) {
        const ranked = rows
          .map((r) => ({ r, s: score(metric, q, r[annsField] as number[]) }))
          .sort((a, b) => b.s - a.s)
          .slice(0, topK);
        topks.push(ranked.length);
        for (const { r, s } of ranked) {
          ids.push(String(r[pk]));
          scores.push(s);
          picked.push(r);
        }
      }
      const fields_data = outFields.map((name) => ({
        type: 'VarChar',
        field_name: name,
        scalars: { string_data: { data: picked.map((r) => String(r[name])) } },
      }));
      return {
        status: OK,
        collection_name: c.name,
        results: {
          num_queries: String(queries.length),
          top_k: String(topK),
          fields_data,
          scores,
          ids: { str_id: { data: ids } },
          topks: topks.map(String),
          output_fields: outFields,
        },
      };
    },
  };

  /** Insert appends (no primary-key check); upsert first retires the entities with the same ids. */
  function write(req: Record<string, unknown>, upsert: boolean) {
    const c = named(req);
    if (!c) return { status: fail('collection not found') };
    const rows = columnsToRows(req.fields_data as FieldData[], Number(req.num_rows));
    if (c.entities.length + rows.length > MAX_ROWS) return { status: fail('stand-in row limit reached') };
    const pk = c.fields.find((f) => f.is_primary_key)!.name;
    const at = ++c.clock;
    if (upsert) {
      const ids = new Set(rows.map((r) => String(r[pk])));
      for (const e of c.entities) if (e.deletedAt === undefined && ids.has(String(e.row[pk]))) e.deletedAt = at;
    }
    for (const row of rows) c.entities.push({ row, at });
    const ids = { str_id: { data: rows.map((r) => String(r[pk])) } };
    return {
      status: OK,
      IDs: ids,
      succ_index: rows.map((_, i) => i),
      ...(upsert ? { upsert_cnt: String(rows.length) } : { insert_cnt: String(rows.length) }),
    };
  }

  /** The entities a read sees at its consistency level; the read then settles every earlier write. */
  function read(c: Collection, req: Record<string, unknown>) {
    const level = req.use_default_consistency === true ? c.consistency : String(req.consistency_level ?? 'Strong');
    const rows = visible(c, level === 'Strong' ? c.clock : c.settled);
    c.settled = c.clock;
    return rows;
  }

  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [name, handle] of Object.entries(handlers)) {
    impl[name] = (
      call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      calls.push(name);
      try {
        callback(null, handle(call.request));
      } catch (e) {
        callback({ code: grpc.status.INTERNAL, details: (e as Error).message });
      }
    };
  }
  server.addService(milvusServiceDefinition(), impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    calls,
    collections,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

interface FieldData {
  field_name: string;
  type: string;
  scalars?: { string_data?: { data: string[] }; long_data?: { data: string[] } };
  vectors?: { dim: string; float_vector?: { data: number[] } };
}

function columnsToRows(fields: FieldData[], n: number): Record<string, unknown>[] {
  const rows = Array.from({ length: n }, () => ({}) as Record<string, unknown>);
  for (const f of fields) {
    if (f.vectors?.float_vector) {
      const dim = Number(f.vectors.dim),
        data = f.vectors.float_vector.data;
      rows.forEach((r, i) => {
        r[f.field_name] = data.slice(i * dim, (i + 1) * dim);
      });
    } else {
      const data = f.scalars?.string_data?.data ?? f.scalars?.long_data?.data ?? [];
      rows.forEach((r, i) => {
        r[f.field_name] = data[i];
      });
    }
  }
  return rows;
}

function visible(c: Collection, at: number) {
  return c.entities.filter((e) => e.at <= at && (e.deletedAt === undefined || e.deletedAt > at)).map((e) => e.row);
}

function score(metric: string, a: number[], b: number[]): number {
  let dot = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  if (metric === 'IP') return dot;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
