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
 * Counters live in memory (rate-limiter-flexible), per instance.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface TokenRequestLimitSettings {
  perAddressPerMinute: number;
  failuresPerClientPerMinute: number;
  issuesPerClientPerMinute: number;
}

/** Seconds to wait, or undefined when the request may go on. */
export type Verdict = { retryAfterSeconds: number; detail: string } | undefined;

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

async function consumeOrRefuse(limiter: RateLimiterMemory, key: string, detail: string): Promise<Verdict> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { retryAfterSeconds: seconds(rejection), detail };
    throw rejection;
  }
}

export function createTokenRequestLimits(settings: TokenRequestLimitSettings) {
  const minute = 60;
  const perAddress = new RateLimiterMemory({ points: settings.perAddressPerMinute, duration: minute });
  const failures = new RateLimiterMemory({ points: settings.failuresPerClientPerMinute, duration: minute });
  const issues = new RateLimiterMemory({ points: settings.issuesPerClientPerMinute, duration: minute });
  const failureKey = (clientId: string, address: string) => JSON.stringify([clientId, address]);

  return {
    /** Counts the request against its address. */
    request: (address: string) =>
      consumeOrRefuse(
        perAddress,
        address,
        `at most ${settings.perAddressPerMinute} token requests per minute from one address`,
      ),
    /** Refuses a client id that failed too often from this address, before its secret is checked. */
    async clientAllowed(clientId: string, address: string): Promise<Verdict> {
      const state = await failures.get(failureKey(clientId, address));
      if (!state || state.consumedPoints < settings.failuresPerClientPerMinute) return undefined;
      return {
        retryAfterSeconds: seconds(state),
        detail: 'too many failed client authentications from this address; wait before trying again',
      };
    },
    async failed(clientId: string, address: string): Promise<void> {
      await failures.penalty(failureKey(clientId, address), 1);
    },
    /** Counts a token about to be issued to the client. */
    issue: (clientId: string) =>
      consumeOrRefuse(
        issues,
        clientId,
        `at most ${settings.issuesPerClientPerMinute} tokens per minute for one client`,
      ),
  };
}

export type TokenRequestLimits = ReturnType<typeof createTokenRequestLimits>;
