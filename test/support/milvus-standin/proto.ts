// Loads the Milvus service and message definitions from the SDK's own bundled protos (JSON
// descriptors under dist/milvus/proto-json, which the client feeds to @grpc/proto-loader's
// fromJSON), so the stand-in speaks exactly the wire format the installed client expects.
// The loaders are required relative to the SDK so we use the very copies it uses.

import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';

const rootRequire = createRequire(import.meta.url);
const sdkRequire = createRequire(rootRequire.resolve('@zilliz/milvus2-sdk-node'));

interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  toObject(m: unknown, o?: object): Record<string, unknown>;
}
interface ProtoRoot {
  lookupType(name: string): ProtoType;
}

const milvusJson = sdkRequire('./proto-json/milvus').default as object;
const milvusBaseJson = sdkRequire('./proto-json/milvus.base').default as object;
const schemaBaseJson = sdkRequire('./proto-json/schema.base').default as object;
type PackageDefinition = Parameters<typeof grpc.loadPackageDefinition>[0];
const protoLoader = sdkRequire('@grpc/proto-loader') as { fromJSON(json: object, options: object): PackageDefinition };
const protobuf = sdkRequire('protobufjs') as { Root: { fromJSON(json: object): ProtoRoot } };

// The same loader options the SDK uses (GrpcClient LOADER_OPTIONS), so enums travel as names.
const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

export function milvusServiceDefinition(): grpc.ServiceDefinition {
  const pkg = grpc.loadPackageDefinition(protoLoader.fromJSON(milvusJson, LOADER_OPTIONS));
  const ctor = ((pkg.milvus as grpc.GrpcObject).proto as grpc.GrpcObject).milvus as grpc.GrpcObject;
  return (ctor.MilvusService as grpc.ServiceClientConstructor).service;
}

const milvusRoot = protobuf.Root.fromJSON(milvusBaseJson);
const schemaRoot = protobuf.Root.fromJSON(schemaBaseJson);
const asObject = { longs: String, enums: String, defaults: true };

/** CreateCollection carries the schema as serialized bytes of milvus.proto.schema.CollectionSchema. */
export function decodeSchema(bytes: Uint8Array): Record<string, unknown> {
  const t = schemaRoot.lookupType('milvus.proto.schema.CollectionSchema');
  // protobufjs names fields in camelCase; the service (loaded with keepCase) speaks snake_case.
  return snakeKeys(t.toObject(t.decode(bytes), asObject)) as Record<string, unknown>;
}

function snakeKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (v === null || typeof v !== 'object' || Buffer.isBuffer(v) || v instanceof Uint8Array) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(x)]),
  );
}

/** Search carries its query vectors as a serialized PlaceholderGroup of little-endian float32 rows. */
export function decodeQueryVectors(bytes: Uint8Array): number[][] {
  const t = milvusRoot.lookupType('milvus.proto.common.PlaceholderGroup');
  const group = t.toObject(t.decode(bytes), { ...asObject, bytes: Buffer }) as {
    placeholders?: { values?: Buffer[] }[];
  };
  return (group.placeholders?.[0]?.values ?? []).map((b) => {
    const out: number[] = [];
    for (let i = 0; i + 4 <= b.length; i += 4) out.push(b.readFloatLE(i));
    return out;
  });
}
