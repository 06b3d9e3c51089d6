/**
 * Embedded event store: one SQLite file (WAL, synchronous=FULL, so a 2xx survives power loss).
 *
 * Group commit: appends that arrive while the previous commit is on its way to disk (or within
 * one turn of the event loop) are written in a single transaction, so many concurrent commands
 * share one fsync. The commit runs on a writer thread (sqlite-writer.ts), so the fsync does not
 * block this event loop; reads stay here, on their own connection. Each append is checked against
 * its own expected revision before anything is written, and serialised before it joins the batch,
 * so one conflict or one bad event does not fail the others; a failure of the transaction itself
 * (disk full, a lock held by another process beyond busy_timeout) fails the batch.
 */
import { EventEmitter } from 'node:events';
import {
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
} from './port.js';
import { prepareLogSchema } from './sqlite-schema.js';
import { sqliteLogReads } from './sqlite-log-reads.js';
import { serialiseAppend, type SerialisedEvent } from './sqlite-serialise.js';
import { preparePrivateSqliteFile } from './private-files.js';
import { openLogConnection } from './sqlite-connection.js';
import { inProcessWriter, threadWriter } from './sqlite-writer.js';

interface PendingAppend {
  stream: string;
  events: SerialisedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:' for tests. */
  filename: string;
  /** Clock for event timestamps and retention by age. */
  now?: () => number;
  /** How often an idle subscription looks for events written by another process. */
  pollIntervalMs?: number;
}

export function openSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  const now = options.now ?? Date.now;
  // The log holds every tenant's data: owner-only file in an owner-only directory.
  preparePrivateSqliteFile(options.filename);
  const db = openLogConnection(options.filename);
  // Created here, before the writer thread opens its own connection, so both see the tables.
  prepareLogSchema(db);
  const writer = options.filename === ':memory:' ? inProcessWriter(db) : threadWriter(options.filename);

  const committed = new EventEmitter().setMaxListeners(0);
  let pending: PendingAppend[] = [];
  let flushScheduled = false;
  /** The batch on its way to disk; at most one, so the next one groups everything that arrives meanwhile. */
  let inFlight: Promise<void> | undefined;
  let closed = false;
  const reads = sqliteLogReads(db, {
    now,
    onCommit: (listener) => {
      committed.on('commit', listener);
      committed.on('close', listener);
      return () => {
        committed.off('commit', listener);
        committed.off('close', listener);
      };
    },
    isClosed: () => closed,
    // Another process may write the same file; an idle subscription looks now and then.
    pollIntervalMs: options.pollIntervalMs ?? 250,
  });

  const settle = (batch: PendingAppend[], outcomes: Awaited<ReturnType<typeof writer.appendBatch>>) => {
    batch.forEach((request, i) => {
      const outcome = outcomes[i]!;
      if ('ok' in outcome) request.resolve(outcome.ok);
      else request.reject(new WrongExpectedRevisionError(request.stream, request.expected, outcome.conflict));
    });
    committed.emit('commit');
  };

  const flush = () => {
    flushScheduled = false;
    if (inFlight || pending.length === 0) return;
    const batch = pending;
    pending = [];
    const requests = batch.map(({ stream, events, expected }) => ({ stream, events, expected }));
    inFlight = writer
      .appendBatch(requests, now())
      .then(
        (outcomes) => settle(batch, outcomes),
        (error: Error) => {
          // The SQLite code is kept: a damaged file (SQLITE_CORRUPT) must show as damage on /health.
          const code = (error as { code?: unknown }).code;
          for (const request of batch)
            request.reject(
              Object.assign(
                new EventStoreUnavailableError(`append failed: ${error.message}`),
                typeof code === 'string' ? { code } : {},
              ),
            );
        },
      )
      .finally(() => {
        inFlight = undefined;
        flush();
      });
  };

  const store: EventStore = {
    append(stream, events, { expectedRevision = 'any' } = {}) {
      if (closed) return Promise.reject(new EventStoreUnavailableError('event store is closed'));
      let serialised: SerialisedEvent[];
      try {
        serialised = serialiseAppend(stream, events);
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<AppendResult>((resolve, reject) => {
        pending.push({ stream, events: serialised, expected: expectedRevision, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },

    readStream: reads.readStream,
    readAll: reads.readAll,
    subscribeToAll: reads.subscribeToAll,
    headPosition: reads.headPosition,
    chainStart: reads.chainStart,
    hasRetention: reads.hasRetention,

    async setStreamRetention(stream, retention) {
      if (closed) throw new EventStoreUnavailableError('event store is closed');
      await writer.setRetention(stream, retention);
    },

    async ping() {
      if (closed) throw new EventStoreUnavailableError('event store is closed');
      db.prepare('SELECT 1').get();
    },

    async close() {
      if (closed) return;
      closed = true;
      // Appends already accepted are still written: drain them, then stop the writer.
      while (inFlight || pending.length > 0) {
        flush();
        await inFlight;
      }
      committed.emit('close');
      committed.removeAllListeners();
      await writer.close().catch(() => {});
      db.close();
    },
  };

  return store;
}
