/**
 * The read side of the embedded log over one connection: stream and global reads, the head, and
 * subscriptions woken by commit notices. The store (sqlite.ts) reads through it on the main
 * thread; the projections on the writer thread (src/composition/projection-host.ts) through their own.
 */
import type Database from 'better-sqlite3';
import type {
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './port.js';
import { pollingSubscription } from './polling-subscription.js';
import { retentionOf } from './sqlite-batch.js';
import { CHAIN_START_KEY, type EventRow, rowToEvent } from './sqlite-schema.js';

export interface LogReadsOptions {
  now: () => number;
  /** Registers a wake-up for new commits; returns the unregister function. */
  onCommit: (listener: () => void) => () => void;
  isClosed: () => boolean;
  /** How often an idle subscription looks for commits it was not told about (another process). */
  pollIntervalMs: number;
}

/** Events a subscription reads at a time. */
const SUBSCRIPTION_PAGE = 500;

export type LogReads = Pick<
  EventStore,
  'readStream' | 'readAll' | 'subscribeToAll' | 'headPosition' | 'chainStart' | 'hasRetention'
>;

export function sqliteLogReads(db: Database.Database, options: LogReadsOptions): LogReads {
  const statements = {
    streamRetention: db.prepare<[string], { max_count: number | null; max_age_s: number | null }>(
      'SELECT max_count, max_age_s FROM stream_retention WHERE stream = ?',
    ),
    head: db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events'),
  };

  // Reads are built per shape and cached. LIMIT is written into the text rather than bound: SQLite
  // re-plans a statement whose bound LIMIT or range parameters change (STAT4), which costs more
  // than the read itself.
  const readStatements = new Map<string, ReturnType<typeof db.prepare<unknown[], EventRow>>>();
  const readStatement = (sql: string) => {
    let statement = readStatements.get(sql);
    if (!statement) readStatements.set(sql, (statement = db.prepare<unknown[], EventRow>(sql)));
    return statement;
  };
  const limitClause = (maxCount: number | undefined) => {
    if (maxCount === undefined) return '';
    if (!Number.isSafeInteger(maxCount) || maxCount < 0)
      throw new Error(`maxCount must be a non-negative integer, got ${maxCount}`);
    return ` LIMIT ${maxCount}`;
  };

  const readAllSync = (after: bigint, maxCount: number): RecordedEvent[] =>
    readStatement(`SELECT * FROM events WHERE position > ? ORDER BY position${limitClause(maxCount)}`)
      .all(Number(after))
      .map(rowToEvent);

  /**
   * How a subscription reads one page: the events after `after`, and how far the read searched.
   * Without a filter that is the last event read. With one, non-matching rows are rejected by
   * SQLite on the stream column alone (never parsed), and the search is bounded by the head read
   * just before: a page that is not full has searched everything up to that head, so the
   * subscription moves there and does not search the same non-matching rows again on every
   * wake-up. A commit after the head read only adds positions above it (positions grow in commit
   * order). The filtered statement and its parameters are built once per subscription, not on
   * every wake-up.
   */
  const subscriptionPages = (prefixes: readonly string[] | undefined) => {
    if (prefixes === undefined) {
      return (after: bigint) => {
        const events = readAllSync(after, SUBSCRIPTION_PAGE);
        return { events, examinedTo: events.at(-1)?.position ?? after };
      };
    }
    // substr counts characters (code points), as Array.from does; an empty list matches nothing.
    const match = prefixes.length === 0 ? '0' : prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ');
    const statement = readStatement(
      `SELECT * FROM events WHERE position > ? AND position <= ? AND (${match}) ORDER BY position${limitClause(SUBSCRIPTION_PAGE)}`,
    );
    const prefixParams = prefixes.flatMap((prefix) => [Array.from(prefix).length, prefix]);
    return (after: bigint) => {
      const { head } = statements.head.get()!;
      if (head === null || BigInt(head) <= after) return { events: [], examinedTo: after };
      const events = statement.all(Number(after), head, ...prefixParams).map(rowToEvent);
      const full = events.length === SUBSCRIPTION_PAGE;
      return { events, examinedTo: full ? events.at(-1)!.position : BigInt(head) };
    };
  };

  return {
    async readStream(stream, read: ReadStreamOptions = {}) {
      const backwards = read.direction === 'backwards';
      const maxAge = statements.streamRetention.get(stream)?.max_age_s;
      const params: unknown[] = [stream];
      let sql = 'SELECT * FROM events WHERE stream = ?';
      if (read.fromRevision !== undefined) {
        sql += backwards ? ' AND revision <= ?' : ' AND revision >= ?';
        params.push(Number(read.fromRevision));
      }
      if (maxAge != null) {
        sql += ' AND created_at >= ?';
        params.push(options.now() - maxAge * 1000);
      }
      sql += ` ORDER BY revision ${backwards ? 'DESC' : 'ASC'}${limitClause(read.maxCount)}`;
      return readStatement(sql)
        .all(...params)
        .map(rowToEvent);
    },

    async readAll(read: ReadAllOptions = {}) {
      return readAllSync(read.after ?? 0n, read.maxCount ?? 1000);
    },

    subscribeToAll(subscribe: SubscribeOptions = {}): Subscription {
      return pollingSubscription({
        after: subscribe.after ?? 0n,
        read: subscriptionPages(subscribe.streamPrefixes),
        onCommit: options.onCommit,
        isClosed: options.isClosed,
        pollIntervalMs: options.pollIntervalMs,
      });
    },

    async headPosition() {
      const { head } = statements.head.get()!;
      return head === null ? -1n : BigInt(head);
    },

    async chainStart() {
      // A reader may open a log no writer of this version has prepared yet: no table, no record.
      const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'log_meta'`).get();
      if (!table) return null;
      const row = db
        .prepare<[string], { value: string }>('SELECT value FROM log_meta WHERE key = ?')
        .get(CHAIN_START_KEY);
      return row ? BigInt(row.value) : null;
    },

    async hasRetention(stream) {
      return retentionOf(statements.streamRetention.get(stream)) !== undefined;
    },
  };
}
