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

/** What recovers a damaged event log: it is the source of truth, so only a copy of it can. */
export const EVENT_LOG_RECOVERY =
  'it is the event log, the source of truth: stop the platform and restore it from a backup (docs/operations.md)';

/** The damage error of one file, named with what recovers it (the code stays SQLite's). */
export class DamagedFileError extends Error {
  override readonly name = 'DamagedFileError';
  readonly code: string;
  constructor(
    readonly file: string,
    cause: Error & { code?: unknown },
    recovery: string,
  ) {
    super(`${file} is damaged (${cause.message}); ${recovery}`, { cause });
    this.code = typeof cause.code === 'string' ? cause.code : 'SQLITE_CORRUPT';
  }
}

/** Runs `work`, turning a damage error into a DamagedFileError naming `file` (other errors pass). */
export function namingDamage<T>(file: string, recovery: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (isDamagedFileError(error) && !(error instanceof DamagedFileError))
      throw new DamagedFileError(file, error as Error, recovery);
    throw error;
  }
}
