/**
 * The stream chain (event-chain.mjs) on EventStoreDB: each event's hash and its previous event's
 * hash travel in the event's JSON metadata under `chain`, beside our EventMetadata, which is what
 * is hashed (without `chain`). The server orders a stream's appends by expected revision, so the
 * adapter hashes against the event at the revision it expects and the server refuses the append
 * if that is no longer the stream's head: no coordination between instances beyond what an append
 * already has.
 *
 * Knowing the previous hash costs nothing for a command, which has just read the stream (the
 * newest hash of every stream read or appended to is remembered, a bounded number of streams);
 * otherwise one read of one event. An append with no expectation of its own ('any',
 * 'stream_exists') is made against the head it read, and looks again if another append got there
 * first, so its caller still sees no conflict.
 */
import {
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendResult as ClientAppendResult,
  type EventStoreDBClient,
  type JSONType,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { chainHash } from './event-chain.mjs';
import { WrongExpectedRevisionError, type ChainLink, type EventToAppend, type ExpectedRevision } from './port.js';
import { CHAIN_METADATA_KEY, collectRead, isChainLink } from './eventstoredb-mapping.js';

/** Streams whose newest hash is remembered (the least recently used is forgotten first). */
const REMEMBERED_HEADS = 10_000;
/** Times an append without an expectation of its own looks at the head again after losing a race. */
const HEAD_RACE_RETRIES = 10;

interface StreamHead {
  revision: bigint | 'no_stream';
  hash: string | null;
}

const NO_HEAD: StreamHead = { revision: 'no_stream', hash: null };

export function chainedAppender(client: EventStoreDBClient, readTimeoutMs: number) {
  const heads = new Map<string, { revision: bigint; hash: string | null }>();
  const remember = (stream: string, revision: bigint, hash: string | null) => {
    heads.delete(stream);
    heads.set(stream, { revision, hash });
    if (heads.size > REMEMBERED_HEADS) heads.delete(heads.keys().next().value!);
  };

  const readOne = async (stream: string, options: Parameters<EventStoreDBClient['readStream']>[1]) =>
    (
      await collectRead(client.readStream(stream, { ...options, maxCount: 1 }), readTimeoutMs).catch(
        (error: unknown) => (error instanceof StreamNotFoundError ? [] : Promise.reject(error)),
      )
    )[0];

  const hashOf = (resolved: ResolvedEvent | undefined): string | null => {
    const metadata = resolved?.event?.isJson ? resolved.event.metadata : undefined;
    const chain =
      typeof metadata === 'object' && metadata !== null
        ? (metadata as Record<string, unknown>)[CHAIN_METADATA_KEY]
        : undefined;
    return isChainLink(chain) ? chain.hash : null;
  };

  /** The hash of the event at `revision`; null when it has none (written before the chain) or is gone (retention). */
  const headAt = async (stream: string, revision: bigint): Promise<StreamHead> => {
    const known = heads.get(stream);
    if (known?.revision === revision) return known;
    const found = await readOne(stream, { direction: FORWARDS, fromRevision: revision });
    return { revision, hash: found?.event?.revision === revision ? hashOf(found) : null };
  };

  const newestHead = async (stream: string): Promise<StreamHead> => {
    const found = await readOne(stream, { direction: BACKWARDS, fromRevision: END });
    // Nothing readable: no stream, or every event expired; a conflict then tells the revision.
    return found?.event ? { revision: found.event.revision, hash: hashOf(found) } : NO_HEAD;
  };

  const chained = (stream: string, events: EventToAppend[], head: StreamHead) => {
    let revision = head.revision === 'no_stream' ? -1n : head.revision;
    let previousHash = head.hash;
    const data = events.map((event) => {
      revision += 1n;
      const link: ChainLink = {
        hash: chainHash({
          stream,
          revision,
          type: event.type,
          data: event.data,
          metadata: event.metadata,
          previousHash,
        }),
        previousHash,
      };
      previousHash = link.hash;
      return jsonEvent({
        id: event.id ?? randomUUID(),
        type: event.type,
        data: event.data as JSONType,
        metadata: { ...event.metadata, [CHAIN_METADATA_KEY]: link } as unknown as JSONType,
      });
    });
    return { data, last: { revision, hash: previousHash } };
  };

  return {
    /** What a read saw of a stream's newest event, so the next append to it needs no read. */
    observe(stream: string, revision: bigint, chain: ChainLink | undefined) {
      const known = heads.get(stream);
      if (!known || known.revision <= revision) remember(stream, revision, chain?.hash ?? null);
    },

    /** Appends `events` chained to the stream's head; throws the client's errors. */
    async append(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<ClientAppendResult> {
      const ownExpectation = expected === 'no_stream' || typeof expected === 'bigint';
      let head =
        expected === 'no_stream'
          ? NO_HEAD
          : typeof expected === 'bigint'
            ? await headAt(stream, expected)
            : await newestHead(stream);
      for (let attempt = 0; ; attempt++) {
        if (expected === 'stream_exists' && head.revision === 'no_stream')
          throw new WrongExpectedRevisionError(stream, expected, 'no_stream');
        const { data, last } = chained(stream, events, head);
        try {
          const result = await client.appendToStream(stream, data, {
            expectedRevision: head.revision === 'no_stream' ? NO_STREAM : head.revision,
          });
          if (events.length > 0) remember(stream, last.revision, last.hash);
          return result;
        } catch (error) {
          // The caller's own expectation failed: its conflict. Otherwise only the chain's did: look again.
          if (ownExpectation || !(error instanceof WrongExpectedVersionError) || attempt >= HEAD_RACE_RETRIES)
            throw error;
          const actual = error.actualVersion;
          head = typeof actual === 'bigint' ? await headAt(stream, actual) : NO_HEAD;
        }
      }
    },
  };
}
