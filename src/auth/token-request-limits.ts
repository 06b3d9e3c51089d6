/**
 * Rate limits of the token endpoint (issue 25): a flood of guesses is refused early and cheaply,
 * while nobody without a client's secret can lock that client out.
 *   - every token request, per source address: TOKEN_REQUESTS_PER_ADDRESS_PER_MINUTE;
 *   - wrong secrets for one client id from one address: TOKEN_FAILURES_PER_CLIENT_PER_MINUTE;
 *     further requests for that client from that address are refused until the minute is over
 *     (a legitimate client elsewhere is not affected);
 *   - tokens issued per client id, all addresses together: TOKEN_ISSUES_PER_CLIENT_PER_MINUTE
 *     (a leaked secret cannot mint tokens without bound; failures do not count, so it is not a
 *     lock-out lever).
 * Counters live in memory (src/http/per-minute-limit.ts), per instance.
 */
import { perMinuteLimit, retryAfterSeconds } from '../http/per-minute-limit.js';

export interface TokenRequestLimitSettings {
  perAddressPerMinute: number;
  failuresPerClientPerMinute: number;
  issuesPerClientPerMinute: number;
}

/** Seconds to wait, or undefined when the request may go on. */
export type Verdict = { retryAfterSeconds: number; detail: string } | undefined;

/** Counts one request against `key`: a refusal with `detail` when the key is over its count. */
async function takeOrRefuse(limit: ReturnType<typeof perMinuteLimit>, key: string, detail: string): Promise<Verdict> {
  const wait = await limit.take(key);
  return wait === undefined ? undefined : { retryAfterSeconds: wait, detail };
}

export function createTokenRequestLimits(settings: TokenRequestLimitSettings) {
  const perAddress = perMinuteLimit(settings.perAddressPerMinute);
  // Counted by penalties, not by requests: only failed authentications count.
  const failures = perMinuteLimit(settings.failuresPerClientPerMinute).limiter;
  const issues = perMinuteLimit(settings.issuesPerClientPerMinute);
  const failureKey = (clientId: string, address: string) => JSON.stringify([clientId, address]);

  return {
    /** Counts the request against its address. */
    request: (address: string) =>
      takeOrRefuse(
        perAddress,
        address,
        `at most ${settings.perAddressPerMinute} token requests per minute from one address`,
      ),
    /** Refuses a client id that failed too often from this address, before its secret is checked. */
    async clientAllowed(clientId: string, address: string): Promise<Verdict> {
      const state = await failures.get(failureKey(clientId, address));
      if (!state || state.consumedPoints < settings.failuresPerClientPerMinute) return undefined;
      return {
        retryAfterSeconds: retryAfterSeconds(state),
        detail: 'too many failed client authentications from this address; wait before trying again',
      };
    },
    async failed(clientId: string, address: string): Promise<void> {
      await failures.penalty(failureKey(clientId, address), 1);
    },
    /** Counts a token about to be issued to the client. */
    issue: (clientId: string) =>
      takeOrRefuse(issues, clientId, `at most ${settings.issuesPerClientPerMinute} tokens per minute for one client`),
  };
}

export type TokenRequestLimits = ReturnType<typeof createTokenRequestLimits>;
