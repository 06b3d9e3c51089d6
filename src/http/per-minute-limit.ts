/**
 * A count per key over a rolling minute, in this instance's memory (rate-limiter-flexible): the
 * token endpoint's, the action links' and the heartbeat pings' limits. `take` counts one request
 * and answers how many seconds the caller must wait when the key is over its count (at least 1,
 * for a Retry-After), or undefined when it may go on.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export const retryAfterSeconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export function perMinuteLimit(points: number) {
  const limiter = new RateLimiterMemory({ points, duration: 60 });
  return {
    limiter,
    async take(key: string): Promise<number | undefined> {
      try {
        await limiter.consume(key);
        return undefined;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return retryAfterSeconds(rejection);
        throw rejection;
      }
    },
  };
}
