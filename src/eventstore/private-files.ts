/**
 * The data directory holds the whole event log, the read models and the identity provider's key:
 * nobody but the platform's user should read it. Modes are set with chmod after creation, because
 * a mode passed to open/mkdir is cut by the process umask (0 in many containers gives 0644/0755
 * from SQLite and mkdir defaults; 0277 would make a directory we cannot write).
 *
 * SQLite creates a database's -wal and -shm files with the mode of the database file itself
 * (unix VFS, findCreateFileMode), so making the main file 0600 before SQLite opens it is enough
 * for new ones; ones left by an older version are tightened here too.
 */
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Creates `dir` (and any missing parent) 0700. A directory that already exists is left as it is:
 * DATA_DIR may be the operator's (`.`, `/var/lib/x`), and its mode is theirs to choose.
 */
export function ensurePrivateDirectory(dir: string): void {
  const target = resolve(dir);
  const firstCreated = mkdirSync(target, { recursive: true, mode: PRIVATE_DIRECTORY });
  if (firstCreated === undefined) return;
  for (let path = target; ; path = dirname(path)) {
    chmodSync(path, PRIVATE_DIRECTORY);
    if (path === resolve(firstCreated) || path === dirname(path)) break;
  }
}

/** Makes a SQLite database file (and its -wal/-shm, if present) exist with mode 0600, before SQLite opens it. */
export function preparePrivateSqliteFile(filename: string): void {
  if (filename === '' || filename === ':memory:') return;
  ensurePrivateDirectory(dirname(filename));
  // A descriptor is opened only to create a file that did not exist; an existing one is changed by
  // path. POSIX drops every lock a process holds on a file when it closes any descriptor of it, so
  // opening and closing a database (or the instance lock) this process already holds would free
  // its locks behind SQLite's back. An empty file is an empty database to SQLite.
  try {
    closeSync(openSync(filename, 'wx', PRIVATE_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    if (existsSync(file)) tighten(file);
  }
}

/** Writes a small file readable by the owner only, replacing any earlier one. */
export function writePrivateFile(path: string, text: string | Uint8Array): void {
  // Removed first: a leftover with a mode we cannot write (0400) would make opening it fail.
  rmSync(path, { force: true });
  const fd = openSync(path, 'wx', PRIVATE_FILE);
  try {
    fchmodSync(fd, PRIVATE_FILE);
    if (typeof text === 'string') writeSync(fd, text);
    else writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function tighten(path: string): void {
  try {
    chmodSync(path, PRIVATE_FILE);
  } catch (error) {
    // Another user's file (vanished meanwhile, or we are not its owner): SQLite decides what happens.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
