/**
 * How the read-model file's two connections are opened: the writer (projections' batches, schema)
 * and a read-only reader, each with a bounded page cache (src/sqlite/page-cache.ts).
 */
import Database from 'better-sqlite3';
import { preparePrivateSqliteFile } from '../eventstore/private-files.js';
import { PAGE_CACHE_PRAGMA } from '../sqlite/page-cache.js';

export function openReadModelConnections(filename: string) {
  // Read models hold tenant data too: owner-only file in an owner-only directory.
  preparePrivateSqliteFile(filename);
  const writerDb = new Database(filename);
  writerDb.pragma('journal_mode = WAL');
  writerDb.pragma('synchronous = NORMAL');
  writerDb.pragma('busy_timeout = 5000');
  writerDb.pragma(PAGE_CACHE_PRAGMA);
  writerDb.exec(
    'CREATE TABLE IF NOT EXISTS _checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL)',
  );
  const readerDb = new Database(filename, { readonly: true });
  readerDb.pragma('busy_timeout = 5000');
  readerDb.pragma(PAGE_CACHE_PRAGMA);
  return { writerDb, readerDb };
}
