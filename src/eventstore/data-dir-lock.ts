/**
 * The embedded stores are single-instance by design: two platforms on one DATA_DIR would each
 * believe they own the log and fail each other's writes. The composition root takes this lock
 * before it opens the embedded event store; a second opener is refused with a message naming the
 * directory and the holder's pid.
 *
 * The lock is an OS file lock, not a pid file: SQLite's exclusive locking mode on a small file
 * `instance.lock` (Node has no flock(), and SQLite's fcntl locking is what the event log already
 * relies on). The kernel drops the lock when its process ends, however it ends (SIGKILL, OOM), so
 * a crashed holder never leaves a stale lock behind. A pid file with `process.kill(pid, 0)` would
 * have to guess: a restarted container's platform is often pid 1 again, so the dead holder looks
 * alive; containers sharing a volume cannot see each other's pids; and two starters taking over
 * the same stale file race. SQLite also refuses a second connection within one process, so a
 * second opener in the same process is refused too.
 *
 * `instance.lock.owner` only says who holds the lock, for the message; it is never trusted to
 * decide, so one left behind by a crash is harmless.
 */
import Database from 'better-sqlite3';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { ensurePrivateDirectory, preparePrivateSqliteFile, writePrivateFile } from './private-files.js';

export const LOCK_FILE = 'instance.lock';
const OWNER_FILE = `${LOCK_FILE}.owner`;

interface Owner {
  pid: number;
  hostname: string;
  since: string;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dir: string,
    readonly holderPid: number | undefined,
    holder: string,
  ) {
    super(
      `DATA_DIR ${dir} is in use by another platform instance (${holder}). The embedded event store is ` +
        'single-instance: stop that instance first, or give this one its own DATA_DIR.',
    );
  }
}

/**
 * Takes the exclusive instance lock of `dir` (created if missing) and returns its release. Throws
 * DataDirLockedError while another process, or another opener in this process, holds it.
 */
export function acquireDataDirLock(dir: string): () => void {
  const absolute = resolve(dir);
  ensurePrivateDirectory(absolute);
  preparePrivateSqliteFile(join(absolute, LOCK_FILE));
  // timeout 0: a held lock is an answer, not something to wait for.
  const db = new Database(join(absolute, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write transaction takes the exclusive lock; in EXCLUSIVE mode it is kept until close.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    const owner = readOwner(absolute);
    throw new DataDirLockedError(
      absolute,
      owner?.pid,
      owner ? `pid ${owner.pid} on ${owner.hostname}, since ${owner.since}` : 'pid unknown',
    );
  }
  const owner: Owner = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  writePrivateFile(join(absolute, OWNER_FILE), JSON.stringify(owner));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // The owner file goes while the lock is still held, so it can never remove a next holder's.
    rmSync(join(absolute, OWNER_FILE), { force: true });
    db.close();
  };
}

function readOwner(dir: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Owner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    // The holder has not written it yet, or it is not ours: the message says "pid unknown".
    return undefined;
  }
}
