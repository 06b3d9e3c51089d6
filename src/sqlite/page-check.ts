/**
 * SQLite's own check of a file's pages (`PRAGMA quick_check`): every b-tree page of every table and
 * index is read and its structure checked (page types, cell pointers, overflow chains, free list),
 * which finds a zeroed or torn page wherever it lies, whether or not anything reads it. It reads the
 * file once, in O(pages); unlike integrity_check it does not match each index against its table.
 * Through a connection of its own: in WAL mode a reader never blocks the writer (a checkpoint cannot
 * recycle the WAL past the check's snapshot until it ends, so the WAL may grow meanwhile).
 */
import Database from 'better-sqlite3';
import { isDamagedFileError } from './damaged-file.js';
import { PAGE_CACHE_PRAGMA } from './page-cache.js';

/** Problems listed per file: one is enough to call it damaged; a few say how far it goes. */
export const LISTED_PROBLEMS = 10;

/** `problems` is empty when the file is intact. */
export interface PageCheck {
  file: string;
  problems: string[];
}

export function checkPages(file: string): PageCheck {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // Each page is read once: a cache would only fill with the file (and its memory outlive the check).
    db.pragma(PAGE_CACHE_PRAGMA);
    const rows = db.pragma(`quick_check(${LISTED_PROBLEMS})`, { simple: false }) as { quick_check: string }[];
    // One row per problem, or one row of lines under a `*** in database main ***` heading.
    const problems = rows
      .flatMap((row) => row.quick_check.split('\n'))
      .filter((line) => line !== 'ok' && !line.startsWith('***'));
    return { file, problems };
  } catch (error) {
    // SQLite may refuse to go on at the first damaged page it meets (the schema's, a root's).
    if (isDamagedFileError(error)) return { file, problems: [(error as Error).message] };
    throw error;
  } finally {
    db?.close();
  }
}
