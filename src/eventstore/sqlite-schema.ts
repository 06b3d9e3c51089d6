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
`;

/**
 * Creates the tables, and adds the chain's columns to a log written before they existed (its
 * events keep NULL there: each stream's chain starts at its first event appended afterwards).
 */
export function prepareLogSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(events)').all().map((column) => column.name);
  if (!columns.includes('hash')) db.exec('ALTER TABLE events ADD COLUMN hash TEXT; ALTER TABLE events ADD COLUMN previous_hash TEXT;');
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
