/**
 * The write side of the SQLite log: one group commit of appends, and retention settings. It runs
 * wherever the writer connection lives (the writer thread, or in-process for ':memory:'), so it
 * takes and returns plain data that crosses a thread boundary unchanged.
 */
import type Database from 'better-sqlite3';
import { chainHashOfCanonical } from './event-chain.mjs';
import type { AppendResult, ExpectedRevision, StreamRetention } from './port.js';
import type { SerialisedEvent } from './sqlite-serialise.js';

export interface AppendRequest {
  stream: string;
  events: SerialisedEvent[];
  expected: ExpectedRevision;
}

/** A conflict carries the stream's actual revision; the caller builds the WrongExpectedRevisionError. */
export type AppendOutcome = { ok: AppendResult } | { conflict: bigint | 'no_stream' };

export interface LogWriter {
  /** One transaction for the whole batch; throws when the transaction itself fails. */
  appendBatch(batch: AppendRequest[], createdAt: number): AppendOutcome[];
  setRetention(stream: string, retention: StreamRetention): void;
}

/** A stream's newest event as an append sees it; `hash` is null before the chain (or the stream) began. */
interface StreamHead {
  revision: bigint | 'no_stream';
  hash: string | null;
}

const NO_STREAM: StreamHead = { revision: 'no_stream', hash: null };

export function logWriter(db: Database.Database): LogWriter {
  const statements = {
    // The stream's newest event: its revision, and its hash, which the next event chains to.
    streamHead: db.prepare<[string], { revision: number; hash: string | null }>(
      'SELECT revision, hash FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    ),
    streamRetention: db.prepare<[string], { max_count: number | null; max_age_s: number | null }>(
      'SELECT max_count, max_age_s FROM stream_retention WHERE stream = ?',
    ),
    insertEvent: db.prepare(
      'INSERT INTO events (id, stream, revision, type, data, metadata, created_at, hash, previous_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    trimByCount: db.prepare('DELETE FROM events WHERE stream = ? AND revision <= ?'),
    // Never the newest event: it carries the stream's current revision (reads hide it once expired).
    trimByAge: db.prepare('DELETE FROM events WHERE stream = ? AND created_at < ? AND revision < ?'),
    setRetention: db.prepare(
      `INSERT INTO stream_retention (stream, max_count, max_age_s) VALUES (?, ?, ?)
       ON CONFLICT(stream) DO UPDATE SET max_count = excluded.max_count, max_age_s = excluded.max_age_s`,
    ),
  };

  const currentHead = (stream: string): { head: StreamHead; retention?: StreamRetention } => {
    const newest = statements.streamHead.get(stream);
    const retention = retentionOf(statements.streamRetention.get(stream));
    return { head: newest ? { revision: BigInt(newest.revision), hash: newest.hash } : NO_STREAM, retention };
  };

  /**
   * Writes one append whose expected revision has been checked, each event chained to the one
   * before it (the stream's head, then the append's own previous event), then applies the stream's
   * retention. Returns the stream's new head.
   */
  const writeAppend = (
    request: AppendRequest,
    head: StreamHead,
    retention: StreamRetention | undefined,
    createdAt: number,
  ): { result: AppendResult; head: StreamHead } => {
    let next = head.revision === 'no_stream' ? -1 : Number(head.revision);
    let previousHash = head.hash;
    let position = -1;
    for (const event of request.events) {
      next += 1;
      const hash = chainHashOfCanonical(request.stream, next, event.type, event.data, event.metadata, previousHash);
      const info = statements.insertEvent.run(
        event.id,
        request.stream,
        next,
        event.type,
        event.data,
        event.metadata,
        createdAt,
        hash,
        previousHash,
      );
      position = Number(info.lastInsertRowid);
      previousHash = hash;
    }
    if (retention?.maxCount !== undefined) statements.trimByCount.run(request.stream, next - retention.maxCount);
    if (retention?.maxAgeSeconds !== undefined)
      statements.trimByAge.run(request.stream, createdAt - retention.maxAgeSeconds * 1000, next);
    return {
      result: { nextRevision: BigInt(next), position: BigInt(position) },
      head: { revision: BigInt(next), hash: previousHash },
    };
  };

  // The group commit: one transaction for the whole batch. Expected revisions are checked before
  // anything is written (against the stored revision or an earlier append of the same batch), so
  // a conflicting append simply writes nothing and the others are unaffected.
  const appendBatch = db.transaction((batch: AppendRequest[], createdAt: number) => {
    const heads = new Map<string, StreamHead>();
    return batch.map((request): AppendOutcome => {
      const stored = currentHead(request.stream);
      const head = heads.get(request.stream) ?? stored.head;
      if (!revisionMatches(request.expected, head.revision)) return { conflict: head.revision };
      const written = writeAppend(request, head, stored.retention, createdAt);
      heads.set(request.stream, written.head);
      return { ok: written.result };
    });
  });

  return {
    // IMMEDIATE: take the write lock before reading the current revisions. A deferred transaction
    // reads first and upgrades later; when another process (a second instance, the rebuild CLI)
    // committed in between, SQLite cannot upgrade the stale snapshot and fails at once with
    // "database is locked" instead of waiting busy_timeout for the lock.
    appendBatch: (batch, createdAt) => appendBatch.immediate(batch, createdAt),
    setRetention(stream, retention) {
      statements.setRetention.run(stream, retention.maxCount ?? null, retention.maxAgeSeconds ?? null);
    },
  };
}

export function retentionOf(
  info: { max_count: number | null; max_age_s: number | null } | undefined,
): StreamRetention | undefined {
  if (!info || (info.max_count === null && info.max_age_s === null)) return undefined;
  return { maxCount: info.max_count ?? undefined, maxAgeSeconds: info.max_age_s ?? undefined };
}

function revisionMatches(expected: ExpectedRevision, actual: bigint | 'no_stream'): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === 'no_stream';
  if (expected === 'stream_exists') return actual !== 'no_stream';
  return actual === expected;
}
