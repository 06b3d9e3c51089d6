/**
 * The EventStoreDB gRPC protocol, as the client itself knows it: its generated service
 * definitions and message classes.
 *
 * The generated serializers check `instanceof` against their own message classes, so the stand-in
 * must build responses from the very module instances the client loaded. The client requires
 * `../../generated/*_pb` from its dist folder; requiring the package subpath resolves to the same
 * file and therefore the same entry in the CommonJS module cache. (An ESM `import` would not work
 * anyway: these files fill `exports` at run time, so Node cannot see their named exports.)
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const streamsPb =
  require('@eventstore/db-client/generated/streams_pb.js') as typeof import('@eventstore/db-client/generated/streams_pb.js');
export const sharedPb =
  require('@eventstore/db-client/generated/shared_pb.js') as typeof import('@eventstore/db-client/generated/shared_pb.js');
export const { StreamsService } =
  require('@eventstore/db-client/generated/streams_grpc_pb.js') as typeof import('@eventstore/db-client/generated/streams_grpc_pb.js');

export type ReadReq = import('@eventstore/db-client/generated/streams_pb.js').ReadReq;
export type ReadResp = import('@eventstore/db-client/generated/streams_pb.js').ReadResp;
export type AppendReq = import('@eventstore/db-client/generated/streams_pb.js').AppendReq;
export type AppendResp = import('@eventstore/db-client/generated/streams_pb.js').AppendResp;
