/**
 * When a failed delivery attempt is tried again, and after how long. Pure: randomness and the
 * current time are arguments, so the schedule is tested without waiting.
 *
 * Retried: network errors, timeouts, transient DNS failures, 429 and 5xx. Not retried: other 4xx
 * (the request is wrong and will stay wrong), redirects, TLS failures, refused addresses.
 * Waits use exponential backoff with full jitter (a uniform draw below the exponential ceiling),
 * which spreads the retries of many deliveries failing together; a Retry-After header wins over
 * the backoff, capped so one slow receiver cannot hold an escalation for minutes.
 */

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** Ceiling of the first wait; it doubles for each further retry. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After honoured; a longer one is waited for this long. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

export const isRetryableStatus = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** `retry` counts from 1 (the wait before the second attempt). `random()` is in [0, 1). */
export function backoffDelayMs(retry: number, random: () => number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP-date; undefined if unreadable. */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // a bare number with a sign or decimals is not valid
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** What the client knows about an attempt when deciding on the next one. */
export type AttemptSummary =
  | { type: 'response'; status: number; retryAfter?: string }
  | { type: 'failure'; retryable: boolean };

/** The wait before the next attempt, or undefined when there is to be none. */
export function delayBeforeRetry(
  attempt: AttemptSummary,
  attemptsMade: number,
  context: { policy: RetryPolicy; random: () => number; nowMs: number },
): number | undefined {
  const { policy } = context;
  if (attemptsMade >= policy.maxAttempts) return undefined;
  if (attempt.type === 'failure')
    return attempt.retryable ? backoffDelayMs(attemptsMade, context.random, policy) : undefined;
  if (!isRetryableStatus(attempt.status)) return undefined;
  const asked = parseRetryAfterMs(attempt.retryAfter, context.nowMs);
  if (asked !== undefined) return Math.min(asked, policy.maxRetryAfterMs);
  return backoffDelayMs(attemptsMade, context.random, policy);
}
