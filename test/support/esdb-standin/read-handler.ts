/**
 * The `Streams.Read` RPC of the stand-in: reads of one stream, reads of $all, and catch-up
 * subscriptions to $all. (Subscriptions to a single stream are not used by our adapter.)
 */
import { randomUUID } from 'node:crypto';
import { status, type ServerWritableStream } from '@grpc/grpc-js';
import { streamsPb, type ReadReq, type ReadResp } from './protocol.js';
import {
  caughtUpResponse,
  checkpointResponse,
  confirmationResponse,
  eventResponse,
  streamNameOf,
  streamNotFoundResponse,
} from './messages.js';
import type { AllFrom, Direction, InMemoryEventLog, StoredEvent, StreamFrom } from './storage.js';

type ReadOptions = InstanceType<typeof streamsPb.ReadReq.Options>;
type ReadCall = ServerWritableStream<ReadReq, ReadResp>;

const { StreamOptionCase, CountOptionCase, FilterOptionCase, ReadDirection } = streamsPb.ReadReq.Options;
const { FilterCase, WindowCase } = streamsPb.ReadReq.Options.FilterOptions;
const { RevisionOptionCase } = streamsPb.ReadReq.Options.StreamOptions;
const { AllOptionCase } = streamsPb.ReadReq.Options.AllOptions;

/** A real server's search window when the client asks for `count` rather than a maximum. */
const DEFAULT_SEARCH_WINDOW = 32;

/** Open subscription calls, so a test can drop them as a flaky network or a restarting server would. */
export type SubscriptionRegistry = Set<ReadCall>;

export function readHandler(log: InMemoryEventLog, subscriptions: SubscriptionRegistry) {
  return (call: ReadCall): void => {
    const options = call.request.getOptions();
    if (!options) return failCall(call, status.INVALID_ARGUMENT, 'read options are required');
    const target = options.getStreamOptionCase();
    const isSubscription = options.getCountOptionCase() === CountOptionCase.SUBSCRIPTION;
    if (target === StreamOptionCase.STREAM && !isSubscription) return readStream(call, log, options);
    if (target === StreamOptionCase.ALL && !isSubscription) return readAll(call, log, options);
    if (target === StreamOptionCase.ALL && isSubscription) return subscribeToAll(call, log, options, subscriptions);
    failCall(call, status.UNIMPLEMENTED, 'the stand-in does not implement this kind of read');
  };
}

const directionOf = (options: ReadOptions): Direction =>
  options.getReadDirection() === ReadDirection.BACKWARDS ? 'backwards' : 'forwards';

function readStream(call: ReadCall, log: InMemoryEventLog, options: ReadOptions): void {
  const streamOptions = options.getStream()!;
  const stream = streamNameOf(streamOptions.getStreamIdentifier());
  const revisionCase = streamOptions.getRevisionOptionCase();
  const from: StreamFrom =
    revisionCase === RevisionOptionCase.END
      ? 'end'
      : revisionCase === RevisionOptionCase.REVISION
        ? BigInt(streamOptions.getRevision())
        : 'start';
  const events = log.readStream(stream, from, directionOf(options), BigInt(options.getCount()));
  if (events === undefined) call.write(streamNotFoundResponse(stream));
  else for (const event of events) call.write(eventResponse(event));
  call.end();
}

function allFromOf(options: ReadOptions): AllFrom {
  const all = options.getAll()!;
  const allCase = all.getAllOptionCase();
  if (allCase === AllOptionCase.END) return 'end';
  if (allCase === AllOptionCase.POSITION) return BigInt(all.getPosition()!.getCommitPosition());
  return 'start';
}

function readAll(call: ReadCall, log: InMemoryEventLog, options: ReadOptions): void {
  const events = log.readAll(
    allFromOf(options),
    directionOf(options),
    BigInt(options.getCount()),
    eventFilterOf(options),
  );
  for (const event of events) call.write(eventResponse(event));
  call.end();
}

/** The server-side filter of a read or subscription: on event type or stream name, by regex or prefixes. */
function eventFilterOf(options: ReadOptions): (event: StoredEvent) => boolean {
  if (options.getFilterOptionCase() !== FilterOptionCase.FILTER) return () => true;
  const filter = options.getFilter()!;
  const onType = filter.getFilterCase() === FilterCase.EVENT_TYPE;
  const expression = onType ? filter.getEventType()! : filter.getStreamIdentifier()!;
  const subject = (event: StoredEvent) => (onType ? event.type : event.stream);
  const regex = expression.getRegex();
  if (regex) {
    const pattern = new RegExp(regex);
    return (event) => pattern.test(subject(event));
  }
  const prefixes = expression.getPrefixList();
  return (event) => prefixes.some((prefix) => subject(event).startsWith(prefix));
}

/**
 * Confirmation, then every stored event after the start (catch-up), then new events as they are
 * appended (live). Appends and this pump are synchronous, so nothing can be appended between
 * the end of the catch-up and the start of live delivery: no gap and no duplicate. Writes ignore
 * gRPC backpressure, which is acceptable for a test fixture holding a few hundred events.
 *
 * Like a real server, a filtered subscription sends a checkpoint each time it has searched
 * `window × multiplier` events, whether they matched or not.
 */
function subscribeToAll(
  call: ReadCall,
  log: InMemoryEventLog,
  options: ReadOptions,
  subscriptions: SubscriptionRegistry,
): void {
  const from = allFromOf(options);
  let cursor = from === 'start' ? 0 : from === 'end' ? log.length : log.indexAtOrAfter(from + 1n); // exclusive start
  const accept = eventFilterOf(options);
  const filter = options.getFilterOptionCase() === FilterOptionCase.FILTER ? options.getFilter()! : undefined;
  const window = filter?.getWindowCase() === WindowCase.MAX ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
  const checkpointEvery = filter ? window * Math.max(1, filter.getCheckpointintervalmultiplier()) : Infinity;
  let searchedSinceCheckpoint = 0;

  const pump = () => {
    if (call.destroyed || call.writableEnded) return;
    while (cursor < log.length) {
      const event = log.eventAt(cursor++)!;
      if (accept(event)) call.write(eventResponse(event));
      if (++searchedSinceCheckpoint >= checkpointEvery) {
        call.write(checkpointResponse(event.position));
        searchedSinceCheckpoint = 0;
      }
    }
  };

  call.write(confirmationResponse(randomUUID()));
  pump();
  call.write(caughtUpResponse());
  const stopListening = log.onAppend(pump);
  subscriptions.add(call);
  const release = () => {
    stopListening();
    subscriptions.delete(call);
  };
  call.on('cancelled', release);
  call.on('close', release);
  call.on('finish', release);
}

/** Ends a server-streaming call with an error status (grpc-js turns an emitted 'error' into the call's status). */
export const failCall = (call: ServerWritableStream<unknown, unknown>, code: status, details: string): void =>
  void call.emit('error', Object.assign(new Error(details), { code, details }));
