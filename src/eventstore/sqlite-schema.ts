import type { RecordedEvent } from './port.js';

/**
 * Events keep their global position as the rowid (AUTOINCREMENT: never reused, so positions only
 * grow even after retention deletes). `streams` holds each stream's current revision, so
 * optimistic-concurrency checks do not scan events, plus its retention settings.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position   INTEGER PRIMARY KEY AUTOINCREMENT,
  id         TEXT NOT NULL UNIQUE,
  stream     TEXT NOT NULL,
  revision   INTEGER NOT NULL,
  type       TEXT NOT NULL,
  data       TEXT NOT NULL,
  metadata   TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream, revision);
CREATE TABLE IF NOT EXISTS streams (
  stream    TEXT PRIMARY KEY,
  revision  INTEGER NOT NULL,
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
