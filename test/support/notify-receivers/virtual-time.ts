/**
 * Virtual time for delivery tests: `sleep` moves the clock instead of waiting, and records each
 * wait, so backoff and Retry-After are asserted exactly and no test sleeps for real.
 */
export function virtualTime(start = Date.parse('2026-03-01T12:00:00.000Z')) {
  let current = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => current,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      current += ms;
    },
    /** Mid-range jitter: each backoff wait is half its ceiling. */
    random: () => 0.5,
  };
}
