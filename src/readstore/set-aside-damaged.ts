/**
 * For `npm run rebuild`: a read-model file SQLite finds damaged is renamed aside (with its WAL and
 * shared-memory files, under a timestamp), so the rebuild starts from a fresh file. Read models are
 * derived from the log; the damaged copy is kept, not deleted, for whoever investigates.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { isDamagedFileError } from '../sqlite/damaged-file.js';

/** Why SQLite finds `file` damaged (its quick_check, or the error opening it), or undefined. Read-only: closing a
 * read-write connection would checkpoint the WAL into the damaged file before it is set aside. */
function damageOf(file: string): string | undefined {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const rows = db.pragma('quick_check') as { quick_check: string }[];
      return rows.length === 1 && rows[0]!.quick_check === 'ok'
        ? undefined
        : rows
            .map((row) => row.quick_check)
            .slice(0, 5)
            .join('; ');
    } finally {
      db.close();
    }
  } catch (error) {
    if (isDamagedFileError(error)) return (error as Error).message;
    throw error;
  }
}

export function setAsideIfDamaged(file: string, now = new Date()): { aside: string; damage: string } | undefined {
  if (!existsSync(file)) return undefined;
  const damage = damageOf(file);
  if (damage === undefined) return undefined;
  const aside = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  return { aside, damage };
}
