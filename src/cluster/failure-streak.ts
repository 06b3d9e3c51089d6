/**
 * A streak of failures of one recurring step (a lease renewal every few seconds), logged without
 * flooding: the first failure, then at most one per period with how many were not logged.
 */
export interface FailureStreak {
  /** Counts a failure at `at`; answers the fields to log, or null when this one is not logged. */
  failed(at: number): { failures: number; notLogged: number } | null;
  /** Ends the streak; answers how many failures it had (0: there was none). */
  ended(): number;
}

export function failureStreak(periodMs: number): FailureStreak {
  let count = 0;
  let suppressed = 0;
  let loggedAt = -Infinity;
  return {
    failed(at) {
      count++;
      if (at - loggedAt < periodMs) {
        suppressed++;
        return null;
      }
      const fields = { failures: count, notLogged: suppressed };
      loggedAt = at;
      suppressed = 0;
      return fields;
    },
    ended() {
      const had = count;
      count = 0;
      suppressed = 0;
      loggedAt = -Infinity;
      return had;
    },
  };
}
