// A SQLite file's checkpointer thread (see background-checkpointer.ts): its own connection, a
// PASSIVE checkpoint on a timer, closed on 'stop'. Plain JavaScript on purpose: a thread that
// loads TypeScript through tsx costs tens of MiB of memory for these few lines. A checkpoint that
// cannot run now (a busy writer, a rebuild swapping tables) is simply tried again at the next tick.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const { filename, intervalMs, synchronous, cacheKib } = workerData;
const db = new Database(filename);
// The writer's own level (a number, as SQLite reports it), so a checkpoint syncs the database
// file before the WAL may be reused exactly as the writer's own checkpoints would.
db.pragma(`synchronous = ${Number(synchronous)}`);
// Bounded like every connection (page-cache.ts, passed in: this plain module cannot import it under tsx).
db.pragma(`cache_size = -${Number(cacheKib)}`);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // Busy or locked: the next tick tries again; the writer's own limit bounds the WAL meanwhile.
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
