/**
 * The management API's rate limit: Auth0 answers 429 with Retry-After and X-RateLimit-Reset
 * (https://auth0.com/docs/troubleshoot/customer-support/operational-policies/rate-limit-policy); the
 * adapter waits them out within a per-invitation budget, in virtual time here.
 */
import test from 'ava';
import { rateLimitWaitMs } from '../src/gateways/identity/management-http.js';
import { IdentityProviderError } from '../src/gateways/identity/port.js';
import { adapter, invitee, recordingMailer, within } from './support/identity-fixtures.js';

/** A clock shared by the adapter and the stand-in's rate limit; sleeping advances it. */
function virtualTime() {
  const time = { clock: Date.parse('2026-11-24T12:00:00.300Z'), sleeps: [] as number[] };
  return {
    time,
    now: () => time.clock,
    sleep: async (ms: number) => {
      time.sleeps.push(ms);
      time.clock += ms;
    },
  };
}

test("a burst of invitations is paced by the 429s' Retry-After and every invitation goes through", async (t) => {
  const { time, now, sleep } = virtualTime();
  const standIn = await within(t, { rateLimit: { burst: 3, perSecond: 1 }, now });
  const { sent, mailer } = recordingMailer();
  const provider = adapter(standIn, mailer, { now, sleep });
  for (const n of [1, 2, 3]) await provider.invite(invitee(n));
  t.is(sent.length, 3);
  t.is(
    standIn.requests.filter((r) => r.step === 'create_user').length +
      standIn.requests.filter((r) => r.step === 'ticket').length,
    6 + time.sleeps.length,
  );
  t.deepEqual(time.sleeps, [1000, 1000, 1000], 'one Retry-After of 1 s per 429');
});

test('without Retry-After the wait runs to X-RateLimit-Reset', async (t) => {
  const { time, now, sleep } = virtualTime();
  const standIn = await within(t, { rateLimit: { burst: 1, perSecond: 0.5, retryAfter: false }, now });
  await adapter(standIn, recordingMailer().mailer, { now, sleep }).invite(invitee(1));
  t.is(time.sleeps.length, 1);
  // The bucket refills in 2 s; the reset is that moment rounded up to a whole second.
  t.true(time.sleeps[0]! >= 2000 && time.sleeps[0]! < 3000, `waited ${time.sleeps[0]} ms`);
});

test('a 429 asking for a wait beyond the budget fails the invitation at once, as any refusal does', async (t) => {
  const { time, now, sleep } = virtualTime();
  const standIn = await within(t, { rateLimit: { burst: 1, perSecond: 1 / 60 }, now });
  const error = await t.throwsAsync(adapter(standIn, recordingMailer().mailer, { now, sleep }).invite(invitee(1)), {
    instanceOf: IdentityProviderError,
  });
  t.deepEqual(time.sleeps, []);
  t.is(error!.step, 'ticket');
  t.is(error!.status, 429);
  t.is(
    error!.message,
    'ticket: the identity provider answered 429: Global limit has been reached (rate limited; asked to wait 60 s)',
  );
});

test('the waits of one invitation share one budget', async (t) => {
  const { time, now, sleep } = virtualTime();
  const standIn = await within(t, { rateLimit: { burst: 1, perSecond: 1 }, now });
  const provider = adapter(standIn, recordingMailer().mailer, { now, sleep, rateLimitBudgetMs: 1500 });
  await provider.invite(invitee(1)); // create, then the ticket waits 1 s: 500 ms of budget left
  t.deepEqual(time.sleeps, [1000]);
  const error = await t.throwsAsync(provider.invite(invitee(2)), { instanceOf: IdentityProviderError });
  t.is(error!.status, 429, 'a fresh budget per invitation: its create waited, its ticket could not');
  t.deepEqual(time.sleeps, [1000, 1000]);
});

test('the wait a 429 asks for: Retry-After (seconds or a date) first, then X-RateLimit-Reset, else none', (t) => {
  const now = Date.parse('2026-11-24T12:00:00.000Z');
  const headers = (entries: Record<string, string>) => new Headers(entries);
  t.is(rateLimitWaitMs(headers({ 'retry-after': '2', 'x-ratelimit-reset': String(now / 1000 + 30) }), now), 2000);
  t.is(rateLimitWaitMs(headers({ 'retry-after': 'Tue, 24 Nov 2026 12:00:03 GMT' }), now), 3000);
  t.is(rateLimitWaitMs(headers({ 'x-ratelimit-reset': String(now / 1000 + 4) }), now), 4000);
  t.is(rateLimitWaitMs(headers({ 'x-ratelimit-reset': String(now / 1000 - 4) }), now), 0, 'a reset already past');
  t.is(rateLimitWaitMs(headers({ 'retry-after': 'soon', 'x-ratelimit-reset': 'later' }), now), undefined);
  t.is(rateLimitWaitMs(headers({}), now), undefined);
});
