import type { RecordedEvent } from './port.js';

/**
 * Events keep their global position as the rowid (AUTOINCREMENT: never reused, so positions only
 * grow even after retention deletes), so the table itself is written sequentially. The only other
 * B-tree is (stream, revision): it answers stream reads and a stream's current revision (its
 * maximum), so every append touches as few random pages as possible (each dirty page is written
 * to the WAL on commit). Retention settings live in their own small table; retention never deletes
 * a stream's newest event, so the current revision is never lost.
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
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream, revision);
CREATE TABLE IF NOT EXISTS stream_retention (
  stream    TEXT PRIMARY KEY,
  max_count INTEGER,
  max_age_s INTEGER
);
`;

export interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  created_at: number;
}

export const rowToEvent = (row: EventRow): RecordedEvent => ({
  id: row.id,
  streamName: row.stream,
  type: row.type,
  revision: BigInt(row.revision),
  position: BigInt(row.position),
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
});
