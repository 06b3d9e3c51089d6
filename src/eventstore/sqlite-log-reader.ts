/**
 * A read-only view of the embedded log for another part of this process (the projections on the
 * writer thread): its own connection, subscriptions woken right after each commit (the `onCommit`
 * of hostOnWriterThread in sqlite-writer.ts) and, as a fallback, by polling. Appending is refused:
 * the process's one appending store is openSqliteEventStore on the main thread.
 */
import { EventEmitter } from 'node:events';
import { EventStoreUnavailableError, type EventStore } from './port.js';
import { openLogConnection } from './sqlite-connection.js';
import { sqliteLogReads } from './sqlite-log-reads.js';

export interface SqliteLogReaderOptions {
  filename: string;
  /** Calls its listener after each commit to the file; returns the unregister function. */
  onCommit: (listener: () => void) => () => void;
  /** How often an idle subscription looks for commits no notice announced. */
  pollIntervalMs?: number;
}

export function openSqliteLogReader(options: SqliteLogReaderOptions): EventStore {
  const db = openLogConnection(options.filename);
  const closing = new EventEmitter().setMaxListeners(0);
  let closed = false;
  const reads = sqliteLogReads(db, {
    now: Date.now,
    onCommit: (listener) => {
      const unregister = options.onCommit(listener);
      closing.on('close', listener);
      return () => {
        unregister();
        closing.off('close', listener);
      };
    },
    isClosed: () => closed,
    pollIntervalMs: options.pollIntervalMs ?? 250,
  });
  const readOnly = () => Promise.reject(new EventStoreUnavailableError('this view of the event log is read-only'));
  return {
    ...reads,
    append: readOnly,
    setStreamRetention: readOnly,
    async ping() {
      if (closed) throw new EventStoreUnavailableError('event store is closed');
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (closed) return;
      closed = true;
      closing.emit('close');
      closing.removeAllListeners();
      db.close();
    },
  };
}
