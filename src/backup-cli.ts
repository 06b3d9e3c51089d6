/**
 * `npm run backup <dir>`: a consistent copy of the embedded stores while the platform serves
 * writes, with SQLite's online backup (better-sqlite3's `db.backup()`), into a new directory.
 *
 * - The read models are copied first, the log second. Each copy is one snapshot of its file, and
 *   the projections only ever apply what the log already holds, so the copied read models are never
 *   ahead of the copied log: the restored platform catches them up from the log, as after a crash.
 *   (The other order could restore read models that list events the log copy lacks.)
 * - Each file is copied in a single backup step: a step holds a read transaction on the source,
 *   which in WAL mode never blocks the writer, and a copy made in many small steps would start
 *   over after every commit of a busy platform and might never finish.
 * - The key files are copied too (0600): without `secrets.key` the channels' sealed secrets cannot
 *   be opened; the identity provider's key keeps issued tokens valid.
 * - `backup.json` records when the copy was taken and the log head it holds; each copy passed
 *   SQLite's quick_check before the command says so.
 *
 * Not copied: `instance-id` (a restored platform is a new instance), `instance.lock`, `outbox/`
 * (mail and SMS a relay has not picked up) and `sync-pg/` (the mirrored warehouse tables, synced
 * again). With EVENTSTORE_URL or MONGODB_URL set those stores are the servers': back them up
 * with the servers' own tools; this command refuses. Restore: docs (operations), test/backup-restore.process.test.ts.
 *
 * The copy's directory is as private as DATA_DIR: created 0700, and an existing (empty) one given
 * for the backup is made 0700 when it is ours (its files are 0600, but whoever may write the
 * directory can replace or remove them, and whoever may read it lists them). One owned by another
 * user and open to others is refused: we cannot tighten it.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Refusal, exitOnCliError } from './cli-refusal.js';
import { loadConfig } from './config.js';
import { ensurePrivateDirectory, preparePrivateSqliteFile, writePrivateFile } from './eventstore/private-files.js';

/** In copy order: read models before the log (see above). */
const DATABASES = ['read-models.db', 'events.db'];
const KEY_FILES = ['secrets.key', 'idp-signing-key.pem', 'dev-client.json'];

async function copyDatabase(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    preparePrivateSqliteFile(target);
    // The first step copies nothing; then everything in one step, one snapshot.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new Database(target, { fileMustExist: true });
  try {
    const [check] = copy.pragma('quick_check', { simple: false }) as { quick_check: string }[];
    if (check?.quick_check !== 'ok')
      throw new Error(`the copy ${target} failed SQLite's quick_check: ${check?.quick_check}`);
  } finally {
    copy.close();
  }
}

function logHead(file: string): number | null {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events').get()!.head;
  } finally {
    db.close();
  }
}

/** Makes an existing target private (0700), or refuses it; returns what was changed, for the report. */
function privateExistingDirectory(target: string): string | undefined {
  const { mode, uid } = statSync(target);
  const access = mode & 0o777;
  if ((access & 0o077) === 0) return undefined;
  const octal = access.toString(8).padStart(4, '0');
  if (uid !== process.getuid?.()) {
    throw new Refusal(
      `${target} is writable or readable by other users (mode ${octal}) and owned by user ${uid}: give the backup a directory of your own (or a new path)`,
      1,
    );
  }
  chmodSync(target, 0o700);
  return `${target}: mode ${octal} tightened to 0700`;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith('-'))
    throw new Refusal('usage: npm run backup <dir>  (a new or empty directory)', 2);
  const config = loadConfig();
  if (config.eventStoreUrl || config.mongodb) {
    throw new Refusal(
      "EVENTSTORE_URL or MONGODB_URL is set: back those stores up with the servers' own tools; this command copies the embedded stores",
      1,
    );
  }
  const target = resolve(args[0]!);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new Refusal(`${target} is not empty: a backup goes into a new or empty directory`, 1);
  if (!existsSync(join(config.dataDir, 'events.db')))
    throw new Refusal(
      `no event store at ${join(config.dataDir, 'events.db')}: nothing to back up (is DATA_DIR right?)`,
      1,
    );
  const tightened = existsSync(target) ? privateExistingDirectory(target) : undefined;
  ensurePrivateDirectory(target);

  const startedAt = new Date().toISOString();
  const copied: string[] = [];
  for (const name of DATABASES) {
    if (!existsSync(join(config.dataDir, name))) continue;
    await copyDatabase(join(config.dataDir, name), join(target, name));
    copied.push(name);
  }
  for (const name of KEY_FILES) {
    if (!existsSync(join(config.dataDir, name))) continue;
    // Written 0600 whatever the source's mode (a copy would keep a 0644 key file's mode).
    writePrivateFile(join(target, name), readFileSync(join(config.dataDir, name)));
    copied.push(name);
  }
  const head = logHead(join(target, 'events.db'));
  writeFileSync(
    join(target, 'backup.json'),
    `${JSON.stringify({ startedAt, finishedAt: new Date().toISOString(), logHeadPosition: head === null ? null : String(head), files: copied }, null, 2)}\n`,
    { mode: 0o600 },
  );
  if (tightened) console.log(tightened);
  console.log(`backed up ${copied.join(', ')} to ${target} (log head position ${head ?? 'none'})`);
}

main().catch(exitOnCliError);
