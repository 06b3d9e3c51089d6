/**
 * How every connection to the event log file is opened: the main thread's reader and the writer
 * thread's writer alike, so durability does not depend on which one commits or checkpoints.
 */
import Database from 'better-sqlite3';

export function openLogConnection(filename: string): Database.Database {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before an append resolves, so a 2xx survives power loss.
  db.pragma('synchronous = FULL');
  // Another process writing the same file holds the write lock for one commit: wait for it.
  db.pragma('busy_timeout = 5000');
  // Event ids and stream names are random, so index pages are touched at random: keep them in
  // memory (64 MiB) rather than re-reading them from the OS on every append.
  db.pragma('cache_size = -65536');
  return db;
}
