/**
 * The event store port. Every adapter (embedded SQLite, EventStoreDB) satisfies this contract,
 * and test/eventstore.contract.ts runs the same suite against each of them.
 *
 * Positions (global log) and revisions (per stream) are bigint, as EventStoreDB has them;
 * serialise them as strings in JSON.
 */

/** What a writer expects the stream to look like before its append. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface EventMetadata {
  tenantId: string;
  /** user id, or system:evaluator, system:escalation, system:sync */
  actor: string;
  correlationId: string;
  causationId: string;
  /** ISO 8601 */
  occurredAt: string;
}

export interface EventToAppend {
  /** Optional client-chosen UUID; the adapter generates one when absent. */
  id?: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  streamName: string;
  type: string;
  /** Position of the event in its stream, from 0. */
  revision: bigint;
  /** Position in the global log; strictly increasing in commit order. */
  position: bigint;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  /**
   * The event's link in its stream's tamper-evident chain (event-chain.mjs); absent on events
   * appended before the chain existed: a stream's chain starts at its first hashed event.
   */
  chain?: ChainLink;
}

export interface ChainLink {
  /** SHA-256 (hex) over stream, revision, type, data, metadata and previousHash. */
  hash: string;
  /** The hash of the stream's previous event; null for the first hashed event of the stream. */
  previousHash: string | null;
}

export interface AppendResult {
  /** Revision of the last event written (the stream's new current revision). */
  nextRevision: bigint;
  /** Global position of the last event written: wait for projections to reach it. */
  position: bigint;
}

export interface ReadStreamOptions {
  /** Inclusive; default 0 (or the end when backwards). */
  fromRevision?: bigint;
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omit to start at the beginning. */
  after?: bigint;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Exclusive: deliver events strictly after this position. Omit to start at the beginning. */
  after?: bigint;
  /**
   * Only events whose stream name starts with one of these are delivered (absent: every event; an
   * empty list: none). The store skips the others itself, so a subscriber interested in a few
   * streams does not pay for reading the whole log. Positions of skipped events are still passed
   * over, so resuming from the last delivered position never misses a matching event.
   */
  streamPrefixes?: readonly string[];
}

/**
 * A catch-up subscription to the global log: delivers every stored event after the starting
 * position (that matches its stream prefixes, if any), then live events, in order, with no gap or
 * duplicate at the hand-over.
 * Consume with `for await`; call `close()` (or break out of the loop) to stop.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface StreamRetention {
  /** Keep at most this many newest events. */
  maxCount?: number;
  /** Drop events older than this. */
  maxAgeSeconds?: number;
}

export interface EventStore {
  /** Appends atomically or not at all; throws WrongExpectedRevisionError on a conflict. */
  append(
    stream: string,
    events: EventToAppend[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Events of one stream; an empty array when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of the global log (user events only; no system events). */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Position of the newest event in the log, or -1n when the log is empty. */
  headPosition(): Promise<bigint>;
  setStreamRetention(stream: string, retention: StreamRetention): Promise<void>;
  /**
   * Where the log's chain began (event-chain.mjs): the first global position from which every event
   * carries a hash, recorded once when this version first wrote to the log; null for a log that has
   * no such record (written, and not yet appended to, by a version before it: legacy).
   */
  chainStart(): Promise<bigint | null>;
  /** Whether retention applies to the stream, so that its oldest events may have been removed. */
  hasRetention(stream: string): Promise<boolean>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Typed error guard: a conflicting append (optimistic concurrency). */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual current revision, or 'no_stream'. */
    readonly actual: bigint | 'no_stream',
  ) {
    super(`wrong expected revision on ${stream}: expected ${String(expected)}, actual ${String(actual)}`);
  }
}

export const isWrongExpectedRevision = (error: unknown): error is WrongExpectedRevisionError =>
  error instanceof WrongExpectedRevisionError;

/** Thrown by any adapter when the backing server cannot be reached. */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
}

/**
 * Thrown by an adapter when an append's events are malformed or cannot be serialised (data holding
 * a BigInt or a circular reference): a bug in the caller, not an outage; only that append fails.
 */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
  constructor(
    readonly stream: string,
    reason: string,
  ) {
    super(`invalid append to ${stream}: ${reason}`);
  }
}
