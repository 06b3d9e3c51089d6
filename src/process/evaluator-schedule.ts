/**
 * Runs the evaluator every interval with node-schedule. Ticks start on the interval's grid
 * (multiples of the interval since the epoch, e.g. :00 of every minute), so every instance of a
 * cluster ticks at the same instants and a rule handed from one member to another is evaluated
 * once per grid slot. Each tick is scheduled when the previous one ends, so ticks never overlap;
 * a tick slower than the interval is logged and the next one starts right after it.
 *
 * node-schedule silently refuses a date that has already passed (`scheduleJob` answers null), and
 * "right after a slow tick" can be in the past by the time it is scheduled on a busy machine: such
 * a tick runs at once instead, or the evaluator would never tick again.
 */
import schedule from 'node-schedule';
import type { Logger } from 'pino';
import type { Evaluator } from './evaluator.js';

/** Runs `run` at `at`; null when it will not (node-schedule's answer for a date already past). */
export type ScheduleAt = (at: Date, run: () => void) => { cancel(): void } | null;

const nodeSchedule: ScheduleAt = (at, run) => schedule.scheduleJob(at, run);

export function scheduleEvaluator(
  evaluator: Pick<Evaluator, 'tick'>,
  options: { intervalSeconds: number; logger: Logger; scheduleAt?: ScheduleAt; now?: () => number },
) {
  const scheduleAt = options.scheduleAt ?? nodeSchedule;
  const now = options.now ?? Date.now;
  let job: { cancel(): void } | null = null;
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const intervalMs = options.intervalSeconds * 1000;

  const run = () => {
    if (stopped) return;
    const started = now();
    current = evaluator
      .tick()
      .then((report) => {
        if (report.durationMs > intervalMs)
          options.logger.warn({ ...report, intervalMs }, 'evaluation tick took longer than the interval');
        else options.logger.debug(report, 'evaluation tick');
      })
      .catch((error) => options.logger.error({ err: error }, 'evaluation tick failed'))
      .finally(() => plan(new Date(Math.max(now() + 1, nextGridInstant(started, intervalMs)))));
  };
  const plan = (at: Date) => {
    if (stopped) return;
    job = scheduleAt(at, run);
    if (!job) setImmediate(run);
  };
  plan(new Date(nextGridInstant(now(), intervalMs)));

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
