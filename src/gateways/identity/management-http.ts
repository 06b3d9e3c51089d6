/**
 * One call to the identity provider's management API: a timeout per attempt, no redirects, the
 * answer's JSON body, and 429 waited out within a budget shared by all the calls of one invitation.
 *
 * Auth0 limits the Management API per tenant (a token bucket: bursts, then a sustained rate; 2
 * requests a second on free tenants) and answers 429 with `X-RateLimit-Limit`, `-Remaining` and
 * `-Reset`, "a UNIX timestamp of the expected time when the rate limit will reset"
 * (https://auth0.com/docs/troubleshoot/customer-support/operational-policies/rate-limit-policy).
 * A `Retry-After` is honoured first (read by the platform's retry policy, src/gateways/http), then
 * `X-RateLimit-Reset`, else a one-second pause. A wait that does not fit the budget is not
 * started: the 429 is the step's answer and the invitation fails as any refusal does (recorded,
 * retried by `POST /users/{id}/invite`). Only 429 is retried here: the other failures are answered
 * at once, as before.
 *
 * These calls go to the operator-configured provider with `fetch`, not through the guarded client,
 * which is for user-configured destinations (address guard, idempotency keys, POST/PUT only).
 */
import { parseRetryAfterMs } from '../http/retry-policy.js';
import { IdentityProviderError } from './port.js';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown> | unknown[] | undefined;
  /** How long a 429 asked us to wait (ms), when it said. */
  retryAfterMs?: number;
}

export interface ManagementHttpOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Longest total wait on 429s per invitation. */
  rateLimitBudgetMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** What is left of one invitation's wait budget. */
export interface WaitBudget {
  remainingMs: number;
}

/** When no header says how long to wait. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 1000;
/** X-RateLimit-Reset has one-second precision and may already have passed: never retry at once. */
const MIN_RATE_LIMIT_WAIT_MS = 100;

/** The wait a 429 asks for: Retry-After, else X-RateLimit-Reset (epoch seconds), else undefined. */
export function rateLimitWaitMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfterMs(headers.get('retry-after') ?? undefined, nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const reset = headers.get('x-ratelimit-reset');
  if (reset === null || !/^\d+$/.test(reset.trim())) return undefined;
  return Math.max(0, Number(reset) * 1000 - nowMs);
}

export function managementHttp(options: ManagementHttpOptions) {
  const { baseUrl, timeoutMs } = options;

  async function attempt(
    step: string,
    method: string,
    path: string,
    body?: unknown,
    bearer?: string,
  ): Promise<ApiAnswer> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new IdentityProviderError(
        `${step}: ${timedOut ? `no answer within ${timeoutMs} ms` : 'the identity provider could not be reached'}`,
        step,
      );
    }
    const text = await response.text().catch(() => '');
    let parsed: ApiAnswer['body'];
    try {
      parsed = text ? (JSON.parse(text) as ApiAnswer['body']) : undefined;
    } catch {
      parsed = undefined;
    }
    const retryAfterMs = response.status === 429 ? rateLimitWaitMs(response.headers, options.now()) : undefined;
    return { status: response.status, body: parsed, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }

  return {
    newBudget: (): WaitBudget => ({ remainingMs: options.rateLimitBudgetMs }),
    /** Tries again after each 429 while its wait fits the budget; returns the last answer. */
    async call(
      budget: WaitBudget,
      step: string,
      method: string,
      path: string,
      body?: unknown,
      bearer?: string,
    ): Promise<ApiAnswer> {
      for (;;) {
        const answer = await attempt(step, method, path, body, bearer);
        if (answer.status !== 429) return answer;
        const waitMs = Math.max(MIN_RATE_LIMIT_WAIT_MS, answer.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS);
        if (waitMs > budget.remainingMs) return answer;
        budget.remainingMs -= waitMs;
        await options.sleep(waitMs);
      }
    },
  };
}
