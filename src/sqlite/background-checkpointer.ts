/**
 * Checkpoints of a SQLite file in WAL mode on a thread of their own: the read-model file
 * (src/readstore/sqlite.ts) and the event log (its writer thread, src/eventstore/sqlite-writer-worker.ts).
 * A checkpoint copies the WAL back into the database and fsyncs it; run by SQLite inside the commit
 * that crosses the WAL's size limit (the default), it stalled that commit for milliseconds: on the
 * read models, every few hundred batches the projections fell a whole fsync behind (most of the
 * append→visible lag's p99), and on the log, every such group commit kept its commands waiting
 * (bench/README.md).
 * Here a PASSIVE checkpoint, which never blocks the writer, runs every CHECKPOINT_INTERVAL_MS from
 * another connection; the writer keeps a much higher limit of its own (WRITER_FALLBACK_PAGES), so
 * the WAL stays bounded even when this thread is gone or the writer never pauses long enough for
 * the WAL to be reset.
 */
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { PAGE_CACHE_KIB } from './page-cache.js';

/** How often the checkpointer copies what the writer committed since its last run. */
export const CHECKPOINT_INTERVAL_MS = 250;
/** The writer's own checkpoint threshold, in WAL pages (about 40 MiB at 4 KiB pages). */
export const WRITER_FALLBACK_PAGES = 10_000;

export interface BackgroundCheckpointer {
  stop(): Promise<void>;
}

/** Moves `writer`'s routine checkpoints to a background thread; call stop before closing `writer`. */
export function checkpointInBackground(writer: Database.Database, filename: string): BackgroundCheckpointer {
  writer.pragma(`wal_autocheckpoint = ${WRITER_FALLBACK_PAGES}`);
  // The checkpointing connection syncs like the writer's own (FULL for the log, NORMAL for the read models).
  const synchronous = writer.pragma('synchronous', { simple: true }) as number;
  const worker = new Worker(new URL('./background-checkpointer-worker.mjs', import.meta.url), {
    workerData: { filename, intervalMs: CHECKPOINT_INTERVAL_MS, synchronous, cacheKib: PAGE_CACHE_KIB },
  });
  // Nothing waits on this thread: it must not keep the process alive, and if it fails the
  // writer's own limit takes over (its error is not the caller's to handle).
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', () => {
    if (writer.open) writer.pragma('wal_autocheckpoint = 1000');
  });
  return {
    stop: () => {
      // Waiting for the thread to close its connection must keep the process alive.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
