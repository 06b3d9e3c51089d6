/**
 * The identity provider's signing keys as this service knows them: the last key set fetched
 * successfully, kept while refreshes fail. A token naming a key id the set lacks triggers a
 * refresh, at most one per REFRESH_INTERVAL_MS for all callers together (one fetch in flight,
 * shared; FAILED_REFRESH_RETRY_MS after a fetch that failed), so a flood of made-up key ids costs one JWKS request per 30 s and never exhausts a
 * fetch budget that real new keys need.
 *
 * The answer distinguishes what is known: a key, "unknown" (a fetch that ended while this lookup
 * waited does not list it), or "not checked yet" (the refresh interval has not passed, or the
 * fetch failed: the caller answers 503 with Retry-After rather than calling a possibly valid new
 * key unknown). A key the set holds is answered at once; a set older than KEY_SET_MAX_AGE_MS is
 * then refreshed in the background (a key the provider withdrew verifies until that refresh ends).
 * The clock is injectable for tests.
 */
import type { KeyObject } from 'node:crypto';

export const REFRESH_INTERVAL_MS = 30_000;
/** After a failed fetch (the provider unreachable), the next may come sooner: no answer came back. */
export const FAILED_REFRESH_RETRY_MS = 5_000;
/** Known keys are re-read this often (on use), so a key the provider withdraws stops verifying. */
export const KEY_SET_MAX_AGE_MS = 10 * 60 * 1000;

export type KeyLookup =
  | { key: KeyObject }
  | { unknown: true }
  /** The set could not be refreshed now; try again after this many ms. */
  | { notCheckedYet: true; retryAfterMs: number }
  /** No key set was ever fetched, and the last attempt failed. */
  | { unavailable: true; retryAfterMs: number; cause: unknown };

export interface JwksKeySetOptions {
  /** Every published signing key by key id (one JWKS request). */
  fetchKeys: () => Promise<Map<string, KeyObject>>;
  now: () => number;
  refreshIntervalMs?: number;
  maxAgeMs?: number;
  onRefreshFailed?: (error: unknown) => void;
}

export function createJwksKeySet(options: JwksKeySetOptions) {
  const interval = options.refreshIntervalMs ?? REFRESH_INTERVAL_MS;
  const maxAge = options.maxAgeMs ?? KEY_SET_MAX_AGE_MS;
  let keys: Map<string, KeyObject> | undefined;
  let fetchedAt = -Infinity;
  let lastAttemptAt = -Infinity;
  let lastError: unknown;
  let inFlight: Promise<void> | undefined;

  const wait = () => (lastError === undefined ? interval : Math.min(interval, FAILED_REFRESH_RETRY_MS));
  const retryAfterMs = () => Math.max(1, lastAttemptAt + wait() - options.now());
  const mayRefresh = () => options.now() - lastAttemptAt >= wait();

  /** Starts a refresh, or joins the one in flight; never rejects (a failure keeps the last good set). */
  function refresh(): Promise<void> {
    if (inFlight) return inFlight;
    lastAttemptAt = options.now();
    inFlight = options
      .fetchKeys()
      .then(
        (fetched) => {
          keys = fetched;
          fetchedAt = options.now();
          lastError = undefined;
        },
        (error: unknown) => {
          lastError = error;
          options.onRefreshFailed?.(error);
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    async keyFor(kid: string): Promise<KeyLookup> {
      // Whether this lookup saw a fetch end (started or joined): then the set is as new as the token.
      let awaitedFetch = false;
      const fetchNow = async () => {
        await refresh();
        awaitedFetch = true;
      };
      // A key the set holds answers at once, also while a refresh is in flight or due (which then
      // runs in the background): a slow identity provider must not hold every request.
      const held = keys?.get(kid);
      if (held) {
        if (!inFlight && options.now() - fetchedAt >= maxAge && mayRefresh()) void refresh();
        return { key: held };
      }
      if (inFlight) await fetchNow();
      else if ((!keys || options.now() - fetchedAt >= maxAge) && mayRefresh()) await fetchNow();
      const known = keys?.get(kid);
      if (known) return { key: known };
      // Not in the set: look again if no fetch was seen yet and the interval allows.
      if (!awaitedFetch && (inFlight || mayRefresh())) {
        await fetchNow();
        const found = keys?.get(kid);
        if (found) return { key: found };
      }
      if (!keys) return { unavailable: true, retryAfterMs: retryAfterMs(), cause: lastError };
      if (awaitedFetch && lastError === undefined) return { unknown: true };
      return { notCheckedYet: true, retryAfterMs: retryAfterMs() };
    },
  };
}
