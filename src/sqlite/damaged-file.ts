/**
 * SQLite's answer for a file whose pages are damaged (zeroed, truncated, not a database): unlike a
 * busy or full store, retrying never helps, so callers answer 503 naming the recovery instead of
 * a 500, and /health reports it.
 */
export const isDamagedFileError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
};

/** What an operator does about it (docs/operations.md, "Damaged files"). */
export const DAMAGED_FILE_RECOVERY =
  'a damaged read-models.db is set aside and rebuilt from the log by `npm run rebuild`; a damaged events.db is restored from a backup';
