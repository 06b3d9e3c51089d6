/**
 * Event store on EventStoreDB, through @eventstore/db-client (gRPC).
 *
 * Events are JSON events; our EventMetadata is the event's JSON metadata. Positions are commit
 * positions in $all. System events (types or streams starting with `$`: stream metadata, stats,
 * projections' links) never reach our callers.
 *
 * Version 6 of the client cannot filter reads of $all (only subscriptions), so readAll and
 * headPosition read pages and skip system events themselves.
 */
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import {
  EventStoreUnavailableError,
  type AppendResult,
  type EventStore,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamRetention,
  type SubscribeOptions,
  type Subscription,
} from './port.js';
import { chainedAppender } from './eventstoredb-chain.js';
import { chainStartRecord } from './eventstoredb-chain-start.js';
import { clientPosition, collectRead, isSystemEvent, portErrorOf, toRecordedEvent } from './eventstoredb-mapping.js';
import {
  DEFAULT_RESUBSCRIBE_BACKOFF,
  resubscribingAllSubscription,
  type ResubscribeBackoff,
} from './eventstoredb-subscription.js';

export interface EventStoreDbStoreOptions {
  /** A read (of a stream, of $all, or a ping) that has not finished by then fails as unavailable. */
  readTimeoutMs?: number;
  /** Delays between attempts to resubscribe after a subscription was dropped. */
  resubscribeBackoff?: ResubscribeBackoff;
}

/** Events fetched per round trip when readAll or headPosition must step over system events. */
const ALL_PAGE_SIZE = 512;
const HEAD_PAGE_SIZE = 256;

/**
 * `connectionString` is an EventStoreDB connection string, e.g.
 * `esdb://admin:changeit@localhost:2113?tls=true` or `esdb://localhost:2113?tls=false`.
 * The client connects lazily: creating the store never fails for an unreachable server; ping() tells.
 */
export function createEventStoreDbStore(connectionString: string, options: EventStoreDbStoreOptions = {}): EventStore {
  // KurrentDB (EventStoreDB's new name) speaks the same protocol, but version 6 of the client only
  // knows the esdb:// schemes.
  const client = EventStoreDBClient.connectionString(
    connectionString.replace(/^kurrentdb(\+discover)?:\/\//, 'esdb$1://'),
  );
  const readTimeoutMs = options.readTimeoutMs ?? 10_000;
  const subscriptions = new Set<Subscription>();
  const chain = chainedAppender(client, readTimeoutMs);
  const chainStart = chainStartRecord(client, readTimeoutMs, () => store.headPosition());

  /** One page of $all, user events only, each strictly after (forwards) or before (backwards) `from`. */
  async function readAllPage(from: bigint | undefined, direction: 'forwards' | 'backwards', pageSize: number) {
    const raw = await collectRead(
      client.readAll({
        fromPosition: from === undefined ? (direction === 'forwards' ? START : END) : clientPosition(from),
        direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
        maxCount: pageSize,
      }),
      readTimeoutMs,
    );
    // A forwards read from a position includes the event at that position; skip it (and, to be
    // safe, anything on the wrong side of `from` in either direction).
    const beyond = (resolved: AllStreamResolvedEvent) =>
      from === undefined || (direction === 'forwards' ? positionOf(resolved) > from : positionOf(resolved) < from);
    const fresh = raw.filter(beyond);
    return {
      events: fresh.filter((resolved) => !isSystemEvent(resolved)).map(toRecordedEvent),
      /** Where the next page starts: the last event seen, system or not. */
      last: fresh.length > 0 ? positionOf(fresh.at(-1)!) : from,
      exhausted: raw.length < pageSize,
    };
  }

  const store: EventStore = {
    async append(stream, events, { expectedRevision = 'any' } = {}): Promise<AppendResult> {
      try {
        await chainStart.ensureRecorded();
        const result = await chain.append(stream, events, expectedRevision);
        // No position only when nothing was written (an empty append).
        return { nextRevision: result.nextExpectedRevision, position: result.position?.commit ?? -1n };
      } catch (error) {
        throw portErrorOf(error, stream, expectedRevision);
      }
    },

    async readStream(stream, { fromRevision, direction = 'forwards', maxCount }: ReadStreamOptions = {}) {
      if (maxCount !== undefined && maxCount <= 0) return [];
      try {
        const read = client.readStream(stream, {
          direction: direction === 'backwards' ? BACKWARDS : FORWARDS,
          fromRevision: fromRevision ?? (direction === 'backwards' ? END : START),
          ...(maxCount !== undefined && { maxCount }),
        });
        const events = (await collectRead(read, readTimeoutMs)).map(toRecordedEvent);
        const newest = direction === 'backwards' ? events[0] : events.at(-1);
        if (newest) chain.observe(stream, newest.revision, newest.chain);
        return events;
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw portErrorOf(error);
      }
    },

    async readAll({ after, maxCount = Number.MAX_SAFE_INTEGER }: ReadAllOptions = {}) {
      const found: RecordedEvent[] = [];
      let from = after !== undefined && after >= 0n ? after : undefined;
      // Ask for what is still wanted (+1: the page may start with the event at `from` itself,
      // which we skip), doubling while system events keep pages from filling it.
      let pageSize = 0;
      try {
        while (found.length < maxCount) {
          pageSize = Math.min(ALL_PAGE_SIZE, Math.max(maxCount - found.length + 1, pageSize * 2));
          const page = await readAllPage(from, 'forwards', pageSize);
          found.push(...page.events.slice(0, maxCount - found.length));
          if (page.exhausted) break;
          from = page.last;
        }
        return found;
      } catch (error) {
        throw portErrorOf(error);
      }
    },

    subscribeToAll({ after, streamPrefixes }: SubscribeOptions = {}) {
      const subscription = resubscribingAllSubscription(client, {
        after,
        streamPrefixes,
        backoff: options.resubscribeBackoff ?? DEFAULT_RESUBSCRIBE_BACKOFF,
        onClose: (closed) => subscriptions.delete(closed),
      });
      subscriptions.add(subscription);
      return subscription;
    },

    async headPosition() {
      let before: bigint | undefined;
      try {
        for (;;) {
          const page = await readAllPage(before, 'backwards', HEAD_PAGE_SIZE);
          if (page.events.length > 0) return page.events[0]!.position;
          if (page.exhausted) return -1n;
          before = page.last;
        }
      } catch (error) {
        throw portErrorOf(error);
      }
    },

    async setStreamRetention(stream, retention: StreamRetention) {
      try {
        // Stream metadata is replaced as a whole, so keep what else it holds: ACLs, and above all
        // `$tb`, which is how a soft-deleted stream hides its old events.
        const latest = await collectRead(
          client.readStream(`$$${stream}`, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
          readTimeoutMs,
        ).catch((error: unknown) => (error instanceof StreamNotFoundError ? [] : Promise.reject(error)));
        const previous = latest[0]?.event?.isJson ? (latest[0].event.data as Record<string, unknown>) : {};
        const { $maxCount: _count, $maxAge: _age, ...kept } = previous;
        await client.setStreamMetadata(stream, {
          ...kept,
          ...(retention.maxCount !== undefined && { maxCount: retention.maxCount }),
          ...(retention.maxAgeSeconds !== undefined && { maxAge: retention.maxAgeSeconds }),
        });
      } catch (error) {
        throw portErrorOf(error);
      }
    },

    async chainStart() {
      try {
        return await chainStart.chainStart();
      } catch (error) {
        throw portErrorOf(error);
      }
    },

    async hasRetention(stream) {
      try {
        return await chainStart.hasRetention(stream);
      } catch (error) {
        throw portErrorOf(error);
      }
    },

    async ping() {
      try {
        await collectRead(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }), readTimeoutMs);
      } catch (error) {
        const mapped = portErrorOf(error);
        throw mapped instanceof EventStoreUnavailableError
          ? mapped
          : new EventStoreUnavailableError('EventStoreDB ping failed', { cause: error });
      }
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await client.dispose();
    },
  };
  return store;
}

const positionOf = (resolved: AllStreamResolvedEvent): bigint =>
  resolved.commitPosition ?? resolved.event?.position.commit ?? -1n;
