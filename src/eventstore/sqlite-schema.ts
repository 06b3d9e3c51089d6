import type Database from 'better-sqlite3';
import type { RecordedEvent } from './port.js';

/**
 * Events keep their global position as the rowid (AUTOINCREMENT: never reused, so positions only
 * grow even after retention deletes), so the table itself is written sequentially. The only other
 * B-tree is (stream, revision): it answers stream reads and a stream's current revision (its
 * maximum), so every append touches as few random pages as possible (each dirty page is written
 * to the WAL on commit). Retention settings live in their own small table; retention never deletes
 * a stream's newest event, so the current revision is never lost. `hash` and `previous_hash` are
 * the event's link in its stream's chain (event-chain.mjs); NULL on events written before it.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position   INTEGER PRIMARY KEY AUTOINCREMENT,
  id         TEXT NOT NULL,
  stream     TEXT NOT NULL,
  revision   INTEGER NOT NULL,
  type       TEXT NOT NULL,
  data       TEXT NOT NULL,
  metadata   TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  hash          TEXT,
  previous_hash TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream, revision);
CREATE TABLE IF NOT EXISTS stream_retention (
  stream    TEXT PRIMARY KEY,
  max_count INTEGER,
  max_age_s INTEGER
);
CREATE TABLE IF NOT EXISTS log_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/** The log_meta key of the chain start: the first position from which every event carries a hash. */
export const CHAIN_START_KEY = 'chain_start_position';

/**
 * Creates the tables, adds the chain's columns to a log written before they existed (its events
 * keep NULL there: each stream's chain starts at its first event appended afterwards), and records
 * once where the log's chain starts. That is the first hashed event's position (since the columns
 * exist every append hashes, so a NULL after it is a removed hash), or, in a log with no hashed
 * event yet, the next position to be written. The record is never changed afterwards; a log
 * without it is judged as before it existed (verify treats it as legacy).
 */
export function prepareLogSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  const columns = db
    .prepare<[], { name: string }>('PRAGMA table_info(events)')
    .all()
    .map((column) => column.name);
  if (!columns.includes('hash'))
    db.exec('ALTER TABLE events ADD COLUMN hash TEXT; ALTER TABLE events ADD COLUMN previous_hash TEXT;');
  db.prepare(
    `INSERT OR IGNORE INTO log_meta (key, value) SELECT ?, CAST(COALESCE(
       (SELECT MIN(position) FROM events WHERE hash IS NOT NULL),
       (SELECT seq FROM sqlite_sequence WHERE name = 'events') + 1,
       (SELECT MAX(position) FROM events) + 1,
       1) AS TEXT)`,
  ).run(CHAIN_START_KEY);
}

export interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  created_at: number;
  hash: string | null;
  previous_hash: string | null;
}

export const rowToEvent = (row: EventRow): RecordedEvent => ({
  id: row.id,
  streamName: row.stream,
  type: row.type,
  revision: BigInt(row.revision),
  position: BigInt(row.position),
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
  // Always set (undefined before the chain), so every event read has one shape.
  chain: row.hash == null ? undefined : { hash: row.hash, previousHash: row.previous_hash ?? null },
});
