/**
 * How every connection to the event log file is opened: the main thread's reader and the writer
 * thread's writer alike, so durability does not depend on which one commits or checkpoints.
 */
import Database from 'better-sqlite3';
import { PAGE_CACHE_PRAGMA } from '../sqlite/page-cache.js';

export function openLogConnection(filename: string): Database.Database {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before an append resolves, so a 2xx survives power loss.
  db.pragma('synchronous = FULL');
  // Another process writing the same file holds the write lock for one commit: wait for it.
  db.pragma('busy_timeout = 5000');
  // Bounded like every connection's (page-cache.ts): the writer keeps each page it appends, so a
  // larger cache only grows with the file for longer.
  db.pragma(PAGE_CACHE_PRAGMA);
  return db;
}
