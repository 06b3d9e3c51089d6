/**
 * Runs the evaluator every interval with node-schedule. Ticks start on the interval's grid
 * (multiples of the interval since the epoch, e.g. :00 of every minute), so every instance of a
 * cluster ticks at the same instants and a rule handed from one member to another is evaluated
 * once per grid slot. Each tick is scheduled when the previous one ends, so ticks never overlap;
 * a tick slower than the interval is logged and the next one starts right after it.
 */
import schedule from 'node-schedule';
import type { Logger } from 'pino';
import type { Evaluator } from './evaluator.js';

export function scheduleEvaluator(evaluator: Evaluator, options: { intervalSeconds: number; logger: Logger }) {
  let job: schedule.Job | null = null;
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const intervalMs = options.intervalSeconds * 1000;

  const plan = (at: Date) => {
    if (stopped) return;
    job = schedule.scheduleJob(at, () => {
      const started = Date.now();
      current = evaluator
        .tick()
        .then((report) => {
          if (report.durationMs > intervalMs) options.logger.warn({ ...report, intervalMs }, 'evaluation tick took longer than the interval');
          else options.logger.debug(report, 'evaluation tick');
        })
        .catch((error) => options.logger.error({ err: error }, 'evaluation tick failed'))
        .finally(() => plan(new Date(Math.max(Date.now() + 1, nextGridInstant(started, intervalMs)))));
    });
  };
  plan(new Date(nextGridInstant(Date.now(), intervalMs)));

  return {
    async stop() {
      stopped = true;
      job?.cancel();
      await current;
    },
  };
}

/** The first instant after `after` (ms since the epoch) that is a whole multiple of the interval. */
export function nextGridInstant(after: number, intervalMs: number): number {
  return Math.floor(after / intervalMs) * intervalMs + intervalMs;
}
