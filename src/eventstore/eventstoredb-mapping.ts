/**
 * Translation between @eventstore/db-client's shapes and our port's: recorded events, positions
 * and errors.
 */
import {
  CancelledError,
  DeadlineExceededError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type Position,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import {
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
  type ChainLink,
  type EventMetadata,
  type ExpectedRevision,
  type RecordedEvent,
} from './port.js';

/**
 * What servers before 22.6 put in the position of an event read from a stream (they only knew
 * positions in $all reads): 2^64 - 1, i.e. "unknown".
 */
const UNKNOWN_POSITION = 2n ** 64n - 1n;

/** Our positions are commit positions; the stand-in and every non-transactional write have prepare == commit. */
export const clientPosition = (position: bigint): Position => ({ commit: position, prepare: position });

/** System events ($metadata, $>, $statsCollected...) and system streams ($$stream, $settings...) start with `$`. */
export const isSystemEvent = (resolved: ResolvedEvent | AllStreamResolvedEvent): boolean =>
  !resolved.event || resolved.event.type.startsWith('$') || resolved.event.streamId.startsWith('$');

/** The metadata key of an event's chain link (eventstoredb-chain.ts). */
export const CHAIN_METADATA_KEY = 'chain';

export const isChainLink = (value: unknown): value is ChainLink =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ChainLink).hash === 'string' &&
  ((value as ChainLink).previousHash === null || typeof (value as ChainLink).previousHash === 'string');

/** The chain link a recorded event's metadata carries, and the metadata that was hashed. */
export function splitChainMetadata(metadata: Record<string, unknown>): {
  metadata: Record<string, unknown>;
  chain: ChainLink | undefined;
} {
  const { [CHAIN_METADATA_KEY]: chain, ...hashed } = metadata;
  return isChainLink(chain) ? { metadata: hashed, chain } : { metadata, chain: undefined };
}

export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event)
    throw new Error('EventStoreDB returned a link to a deleted event; links are not resolved by this adapter');
  if (!event.isJson || !isPlainObject(event.data)) {
    // Every event this adapter writes is a JSON object; anything else was written by someone else.
    throw new Error(`event ${event.id} in ${event.streamId} is not a JSON object event`);
  }
  const commit = resolved.commitPosition ?? event.position?.commit;
  const { metadata, chain } = splitChainMetadata(isPlainObject(event.metadata) ? event.metadata : {});
  return {
    id: event.id,
    streamName: event.streamId,
    type: event.type,
    revision: event.revision,
    // -1n when the server does not report it (stream reads on servers before 22.6).
    position: commit === undefined || commit === UNKNOWN_POSITION ? -1n : commit,
    data: event.data,
    metadata: metadata as unknown as EventMetadata,
    chain,
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** gRPC status codes UNAVAILABLE and DEADLINE_EXCEEDED (numbers, to avoid depending on grpc-js). */
const UNAVAILABLE_GRPC_CODES = new Set([14, 4]);

/** The server could not be reached, or dropped the call: worth retrying later, not a bug. */
export const isUnavailable = (error: unknown): boolean =>
  error instanceof EventStoreUnavailableError ||
  error instanceof UnavailableError ||
  error instanceof DeadlineExceededError ||
  error instanceof CancelledError ||
  // Some calls (the server-features probe before the first append) reject with the raw gRPC error.
  (error instanceof Error && UNAVAILABLE_GRPC_CODES.has((error as { code?: unknown }).code as number));

/** Converts the client's errors into the port's; anything else is returned unchanged. */
export function portErrorOf(error: unknown, stream?: string, expected?: ExpectedRevision): unknown {
  if (error instanceof WrongExpectedVersionError && stream !== undefined && expected !== undefined) {
    return new WrongExpectedRevisionError(stream, expected, error.actualVersion);
  }
  if (error instanceof EventStoreUnavailableError) return error;
  if (isUnavailable(error)) {
    return new EventStoreUnavailableError(`EventStoreDB is unavailable: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

/**
 * Drains a finite read into an array. Reads have no gRPC deadline in the client (it sets
 * Infinity), so a server that accepts the connection but never answers would hang the caller:
 * give up after `timeoutMs` and report the store as unavailable.
 */
export async function collectRead<E>(read: StreamingRead<E>, timeoutMs: number): Promise<E[]> {
  const timer = setTimeout(() => {
    void read.cancel().catch(() => {});
    read.destroy(new EventStoreUnavailableError(`EventStoreDB did not answer a read within ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const items: E[] = [];
    for await (const item of read) items.push(item);
    return items;
  } finally {
    clearTimeout(timer);
  }
}
