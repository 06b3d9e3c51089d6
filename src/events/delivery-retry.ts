/**
 * Durable delivery retries, the pure rules: which failures are worth trying again, and when.
 *
 * A delivery that fails on a rate limit (429), a server error (5xx), the network (timeout, DNS,
 * reset) or a transient SMTP reply (4xx) is recorded as NotificationRetryScheduled and tried again
 * later with the same idempotency key (the pager's `dedup_key`, the webhooks' Idempotency-Key), so
 * a repeat is safe. The guarded HTTP client's own retries (three within about 1.5 s) cover a blip;
 * these cover minutes. PagerDuty's Events API v2 allows 120 events a minute per integration key
 * (PagerDuty support on the community forum, "Which rate limit of REST API is correct": "Events -
 * 120/min (enforced per-integration-key)"; Events API v2 overview,
 * https://github.com/PagerDuty/developer-docs/blob/main/docs/events-API-v2/01-Overview.md) and
 * sends no Retry-After; issue 26 reports its advice to retry about 30 s apart. Hence a first delay
 * of 30 s, doubling to a cap of 10 minutes. After the last attempt the failure is final: that is
 * what NotificationFailed means.
 */

/** Delay before attempt n+1 after attempt n failed (n = 1…7); the 8th failure is final (about 35 minutes in all). */
export const RETRY_DELAYS_MS = [30, 60, 120, 240, 480, 600, 600].map((seconds) => seconds * 1000);
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When to try again after `attempt` (1-based) failed at `failedAt`; null once the attempts are spent. */
export function nextRetryAt(attempt: number, failedAt: number): number | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : failedAt + delay;
}

const TRANSIENT_KINDS = new Set(['timeout', 'network', 'dns']);

/** A failure another attempt may cure: 429, 5xx, the network, a transient SMTP reply. Not: 4xx refusals, bad targets, bugs. */
export function isRetryable(outcome: { status_code?: number; error?: { kind: string } }): boolean {
  const kind = outcome.error?.kind;
  const status = outcome.status_code;
  if (kind !== undefined && TRANSIENT_KINDS.has(kind)) return true;
  if (kind === 'http') return status === 429 || status === 408 || (status !== undefined && status >= 500);
  if (kind === 'smtp') return status === undefined || (status >= 400 && status < 500);
  return false;
}
