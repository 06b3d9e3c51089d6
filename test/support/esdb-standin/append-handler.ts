/**
 * The `Streams.Append` RPC of the stand-in (client streaming): one options message naming the
 * stream and the expected revision, then one message per proposed event. The events are stored
 * when the client half-closes, all at once, so an append is atomic.
 *
 * A wrong expected version is an ordinary response (not a gRPC error), as on a real server.
 */
import { status, type sendUnaryData, type ServerReadableStream } from '@grpc/grpc-js';
import { streamsPb, type AppendReq, type AppendResp } from './protocol.js';
import { appendResponse, proposedEventOf, streamNameOf } from './messages.js';
import type { ExpectedState, InMemoryEventLog, ProposedEvent } from './storage.js';

const { ExpectedStreamRevisionCase } = streamsPb.AppendReq.Options;

function expectedStateOf(options: InstanceType<typeof streamsPb.AppendReq.Options>): ExpectedState {
  switch (options.getExpectedStreamRevisionCase()) {
    case ExpectedStreamRevisionCase.REVISION:
      return BigInt(options.getRevision());
    case ExpectedStreamRevisionCase.NO_STREAM:
      return 'no_stream';
    case ExpectedStreamRevisionCase.STREAM_EXISTS:
      return 'stream_exists';
    default:
      return 'any';
  }
}

export function appendHandler(log: InMemoryEventLog) {
  return (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>): void => {
    let header: { stream: string; expected: ExpectedState } | undefined;
    const proposed: ProposedEvent[] = [];
    call.on('data', (request: AppendReq) => {
      const options = request.getOptions();
      if (options) header = { stream: streamNameOf(options.getStreamIdentifier()), expected: expectedStateOf(options) };
      const message = request.getProposedMessage();
      if (message) proposed.push(proposedEventOf(message));
    });
    call.on('end', () => {
      if (!header)
        return callback({ code: status.INVALID_ARGUMENT, details: 'the first append message must carry options' });
      callback(null, appendResponse(log.append(header.stream, header.expected, proposed), header.expected));
    });
    // A cancelled append simply stores nothing.
    call.on('error', () => {});
  };
}
