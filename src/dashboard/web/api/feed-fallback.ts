/**
 * When a live feed gives way to polling, and when it tries the stream again: pure, so the rules
 * are tested without a browser (test/dashboard-feed-fallback.test.ts).
 *
 * An attempt that does not open is a failure. A refusal (a 429: the person's or the tenant's cap of
 * live streams, or of stream tickets) pauses live updates at once, with the server's words, and
 * the stream is tried again after its Retry-After but no sooner than a minute (asking every few
 * seconds changes nothing while a cap is full, and costs the server a connection each time). Any
 * other failure backs off 0.5 s, 1 s, … up to 15 s, and live updates pause after
 * FAILURES_BEFORE_POLLING of them in a row (a restarting server is back before that). While paused
 * the view reads itself again every POLL_EVERY_MS; it stays paused until a stream opens.
 */

export const POLL_EVERY_MS = 15_000;
export const FAILURES_BEFORE_POLLING = 4;
export const FIRST_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 15_000;
/** The soonest a refused stream is asked for again. */
export const REFUSED_RETRY_MS = 60_000;

/** Why an attempt did not open: the server refused it (its problem detail and Retry-After), or anything else. */
export interface FeedFailure {
  refused?: { detail: string; retryAfterSeconds?: number };
}

export interface FallbackState {
  failuresInARow: number;
  backoffMs: number;
  /** Set while live updates are paused: why, in words for the note. */
  pausedBecause?: string;
}

/** A feed whose stream is open (or has never failed). */
export const LIVE: FallbackState = { failuresInARow: 0, backoffMs: FIRST_BACKOFF_MS };

export interface FallbackStep {
  state: FallbackState;
  /** When to try the stream again. */
  retryInMs: number;
}

export function afterFailure(state: FallbackState, failure: FeedFailure): FallbackStep {
  const failuresInARow = state.failuresInARow + 1;
  if (failure.refused) {
    const { detail, retryAfterSeconds = 0 } = failure.refused;
    return {
      state: {
        failuresInARow,
        backoffMs: state.backoffMs,
        pausedBecause: `the server refused the live feed (${detail})`,
      },
      retryInMs: Math.max(REFUSED_RETRY_MS, retryAfterSeconds * 1000),
    };
  }
  const pausedBecause =
    state.pausedBecause ??
    (failuresInARow >= FAILURES_BEFORE_POLLING
      ? `the live feed could not connect (${failuresInARow} tries in a row)`
      : undefined);
  return {
    state: { failuresInARow, backoffMs: Math.min(state.backoffMs * 2, MAX_BACKOFF_MS), pausedBecause },
    retryInMs: state.backoffMs,
  };
}

/** The note a paused view shows. */
export const pausedNote = (pausedBecause: string) =>
  `Live updates are paused: ${pausedBecause}; refreshing every ${POLL_EVERY_MS / 1000} s`;
