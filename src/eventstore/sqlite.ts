/**
 * Embedded event store: one SQLite file (WAL, synchronous=FULL, so a 2xx survives power loss).
 *
 * Group commit: appends that arrive within one turn of the event loop are written in a single
 * transaction, so many concurrent commands share one fsync. Each append is checked against its own
 * expected revision before anything is written, and serialised before it joins the batch, so one
 * conflict or one bad event does not fail the others; a failure of the transaction itself (disk
 * full, a lock held by another process beyond busy_timeout) fails the batch.
 */
import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import {
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamRetention,
  type SubscribeOptions,
  type Subscription,
} from './port.js';
import { pollingSubscription } from './polling-subscription.js';
import { SCHEMA, type EventRow, rowToEvent } from './sqlite-schema.js';
import { serialiseAppend, type SerialisedEvent } from './sqlite-serialise.js';
import { preparePrivateSqliteFile } from './private-files.js';

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
  const db = new Database(options.filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // Another process writing the same file holds the write lock for one commit: wait for it.
  db.pragma('busy_timeout = 5000');
  // Event ids and stream names are random, so index pages are touched at random: keep them in
  // memory (64 MiB) rather than re-reading them from the OS on every append.
  db.pragma('cache_size = -65536');
  db.exec(SCHEMA);

  const statements = {
    streamRevision: db.prepare<[string], { revision: number | null }>('SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
    streamRetention: db.prepare<[string], { max_count: number | null; max_age_s: number | null }>(
      'SELECT max_count, max_age_s FROM stream_retention WHERE stream = ?',
    ),
    insertEvent: db.prepare(
      'INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    trimByCount: db.prepare('DELETE FROM events WHERE stream = ? AND revision <= ?'),
    // Never the newest event: it carries the stream's current revision (reads hide it once expired).
    trimByAge: db.prepare('DELETE FROM events WHERE stream = ? AND created_at < ? AND revision < ?'),
    setRetention: db.prepare(
      `INSERT INTO stream_retention (stream, max_count, max_age_s) VALUES (?, ?, ?)
       ON CONFLICT(stream) DO UPDATE SET max_count = excluded.max_count, max_age_s = excluded.max_age_s`,
    ),
    head: db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events'),
  };

  // Reads are built per shape and cached. LIMIT is written into the text rather than bound: SQLite
  // re-plans a statement whose bound LIMIT or range parameters change (STAT4), which costs more
  // than the read itself.
  const readStatements = new Map<string, Database.Statement<unknown[], EventRow>>();
  const readStatement = (sql: string) => {
    let statement = readStatements.get(sql);
    if (!statement) readStatements.set(sql, (statement = db.prepare<unknown[], EventRow>(sql)));
    return statement;
  };
  const limitClause = (maxCount: number | undefined) => {
    if (maxCount === undefined) return '';
    if (!Number.isSafeInteger(maxCount) || maxCount < 0) throw new Error(`maxCount must be a non-negative integer, got ${maxCount}`);
    return ` LIMIT ${maxCount}`;
  };

  const committed = new EventEmitter().setMaxListeners(0);
  let pending: PendingAppend[] = [];
  let flushScheduled = false;
  let closed = false;

  const currentRevision = (stream: string): { revision: bigint | 'no_stream'; retention?: StreamRetention } => {
    const { revision } = statements.streamRevision.get(stream)!;
    const retention = retentionOf(statements.streamRetention.get(stream));
    return { revision: revision === null ? 'no_stream' : BigInt(revision), retention };
  };

  /** Writes one append whose expected revision has been checked, then applies the stream's retention. */
  const writeAppend = (request: PendingAppend, current: bigint | 'no_stream', retention: StreamRetention | undefined, createdAt: number): AppendResult => {
    let next = current === 'no_stream' ? -1 : Number(current);
    let position = -1;
    for (const event of request.events) {
      next += 1;
      const info = statements.insertEvent.run(event.id, request.stream, next, event.type, event.data, event.metadata, createdAt);
      position = Number(info.lastInsertRowid);
    }
    if (retention?.maxCount !== undefined) statements.trimByCount.run(request.stream, next - retention.maxCount);
    if (retention?.maxAgeSeconds !== undefined) statements.trimByAge.run(request.stream, createdAt - retention.maxAgeSeconds * 1000, next);
    return { nextRevision: BigInt(next), position: BigInt(position) };
  };

  // The group commit: one transaction for the whole batch. Expected revisions are checked before
  // anything is written (against the stored revision or an earlier append of the same batch), so
  // a conflicting append simply writes nothing and the others are unaffected.
  const appendBatch = db.transaction((batch: PendingAppend[]) => {
    const createdAt = now();
    const revisions = new Map<string, bigint | 'no_stream'>();
    return batch.map((request): { ok: AppendResult } | { error: unknown } => {
      const stored = currentRevision(request.stream);
      const revision = revisions.get(request.stream) ?? stored.revision;
      if (!revisionMatches(request.expected, revision)) {
        return { error: new WrongExpectedRevisionError(request.stream, request.expected, revision) };
      }
      const result = writeAppend(request, revision, stored.retention, createdAt);
      revisions.set(request.stream, result.nextRevision);
      return { ok: result };
    });
  });

  const flush = () => {
    flushScheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    let outcomes: ({ ok: AppendResult } | { error: unknown })[];
    try {
      // IMMEDIATE: take the write lock before reading the current revisions. A deferred transaction
      // reads first and upgrades later; when another process (a second instance, the rebuild CLI)
      // committed in between, SQLite cannot upgrade the stale snapshot and fails at once with
      // "database is locked" instead of waiting busy_timeout for the lock.
      outcomes = appendBatch.immediate(batch);
    } catch (error) {
      for (const request of batch) request.reject(new EventStoreUnavailableError(`append failed: ${(error as Error).message}`));
      return;
    }
    batch.forEach((request, i) => {
      const outcome = outcomes[i]!;
      if ('ok' in outcome) request.resolve(outcome.ok);
      else request.reject(outcome.error);
    });
    committed.emit('commit');
  };

  const readAllSync = (after: bigint, maxCount: number): RecordedEvent[] =>
    readStatement(`SELECT * FROM events WHERE position > ? ORDER BY position${limitClause(maxCount)}`).all(Number(after)).map(rowToEvent);

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

    async readStream(stream, options: ReadStreamOptions = {}) {
      const backwards = options.direction === 'backwards';
      const maxAge = statements.streamRetention.get(stream)?.max_age_s;
      const params: unknown[] = [stream];
      let sql = 'SELECT * FROM events WHERE stream = ?';
      if (options.fromRevision !== undefined) {
        sql += backwards ? ' AND revision <= ?' : ' AND revision >= ?';
        params.push(Number(options.fromRevision));
      }
      if (maxAge != null) {
        sql += ' AND created_at >= ?';
        params.push(now() - maxAge * 1000);
      }
      sql += ` ORDER BY revision ${backwards ? 'DESC' : 'ASC'}${limitClause(options.maxCount)}`;
      return readStatement(sql).all(...params).map(rowToEvent);
    },

    async readAll(options: ReadAllOptions = {}) {
      return readAllSync(options.after ?? 0n, options.maxCount ?? 1000);
    },

    subscribeToAll(subscribe: SubscribeOptions = {}): Subscription {
      return pollingSubscription({
        after: subscribe.after ?? 0n,
        read: (after) => readAllSync(after, 500),
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
    },

    async headPosition() {
      const { head } = statements.head.get()!;
      return head === null ? -1n : BigInt(head);
    },

    async setStreamRetention(stream, retention) {
      statements.setRetention.run(stream, retention.maxCount ?? null, retention.maxAgeSeconds ?? null);
    },

    async ping() {
      if (closed) throw new EventStoreUnavailableError('event store is closed');
      db.prepare('SELECT 1').get();
    },

    async close() {
      if (closed) return;
      flush();
      closed = true;
      committed.emit('close');
      committed.removeAllListeners();
      db.close();
    },
  };

  return store;
}

function retentionOf(info: { max_count: number | null; max_age_s: number | null } | undefined): StreamRetention | undefined {
  if (!info || (info.max_count === null && info.max_age_s === null)) return undefined;
  return { maxCount: info.max_count ?? undefined, maxAgeSeconds: info.max_age_s ?? undefined };
}

function revisionMatches(expected: ExpectedRevision, actual: bigint | 'no_stream'): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === 'no_stream';
  if (expected === 'stream_exists') return actual !== 'no_stream';
  return actual === expected;
}
