import test from 'ava';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  delayBeforeRetry,
  parseRetryAfterMs,
} from '../src/gateways/http/retry-policy.js';

const now = Date.parse('2026-03-01T12:00:00.000Z');
const context = (random = 0.5) => ({ policy: DEFAULT_RETRY_POLICY, random: () => random, nowMs: now });

test('full jitter draws below an exponential ceiling that stops at the maximum', (t) => {
  const ceilings = [1, 2, 3, 4, 5, 6, 7].map((retry) => backoffDelayMs(retry, () => 0.999999, DEFAULT_RETRY_POLICY));
  t.deepEqual(ceilings, [499, 999, 1999, 3999, 7999, 7999, 7999]);
  t.is(
    backoffDelayMs(3, () => 0, DEFAULT_RETRY_POLICY),
    0,
  );
});

test('Retry-After is read as seconds or as an HTTP date', (t) => {
  t.is(parseRetryAfterMs('0', now), 0);
  t.is(parseRetryAfterMs(' 15 ', now), 15_000);
  t.is(parseRetryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now), 30_000);
  t.is(parseRetryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now), 0);
  for (const bad of [undefined, '', '-1', '1.5', 'later', '1e3'])
    t.is(parseRetryAfterMs(bad, now), undefined, String(bad));
});

const decisions: Array<[string, Parameters<typeof delayBeforeRetry>[0], number, number | undefined]> = [
  ['a 500 after the first attempt', { type: 'response', status: 500 }, 1, 250],
  ['a 503 after the second attempt', { type: 'response', status: 503 }, 2, 500],
  ['a 502 after the third (last) attempt', { type: 'response', status: 502 }, 3, undefined],
  ['a 429 with Retry-After 3', { type: 'response', status: 429, retryAfter: '3' }, 1, 3000],
  ['a 429 with Retry-After 3600 (capped)', { type: 'response', status: 429, retryAfter: '3600' }, 1, 30_000],
  ['a 503 with Retry-After 2', { type: 'response', status: 503, retryAfter: '2' }, 1, 2000],
  ['a 400', { type: 'response', status: 400 }, 1, undefined],
  ['a 404', { type: 'response', status: 404 }, 1, undefined],
  ['a 400 with Retry-After', { type: 'response', status: 400, retryAfter: '1' }, 1, undefined],
  ['a 302', { type: 'response', status: 302 }, 1, undefined],
  ['a 200', { type: 'response', status: 200 }, 1, undefined],
  ['a retryable network failure', { type: 'failure', retryable: true }, 1, 250],
  ['a final failure (refused address, TLS)', { type: 'failure', retryable: false }, 1, undefined],
];
for (const [title, attempt, made, expected] of decisions) {
  test(`retry decision: ${title} → ${expected === undefined ? 'no retry' : `${expected} ms`}`, (t) => {
    t.is(delayBeforeRetry(attempt, made, context()), expected);
  });
}
