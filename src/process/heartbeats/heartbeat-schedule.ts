/**
 * Runs the heartbeat checker every HEARTBEAT_CHECK_INTERVAL_SECONDS on an RxJS scheduler (tests
 * pass a virtual one), the first check at once after start-up: a heartbeat that went overdue while
 * the platform was down pages on the first tick. A tick still running when the next is due makes
 * that one wait its turn's end and is skipped (exhaustMap), so ticks never overlap; a failed tick
 * is logged and the next one runs as usual.
 */
import type { Logger } from 'pino';
import {
  asyncScheduler,
  catchError,
  EMPTY,
  exhaustMap,
  from,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { CheckReport, HeartbeatChecker } from './heartbeat-checker.js';

export function scheduleHeartbeatChecks(
  checker: HeartbeatChecker,
  options: {
    intervalSeconds: number;
    logger: Logger;
    scheduler?: SchedulerLike;
    /** Told of each check that ended (the checks and pages counters on /metrics). */
    onReport?: (report: CheckReport) => void;
  },
) {
  const intervalMs = options.intervalSeconds * 1000;
  let current: Promise<unknown> = Promise.resolve();
  let subscription: Subscription | undefined;
  const run = () => {
    const tick = checker.tick();
    current = tick.catch(() => undefined);
    return from(tick).pipe(
      catchError((error) => {
        options.logger.error({ err: error }, 'heartbeat check failed');
        return EMPTY;
      }),
    );
  };
  return {
    start() {
      subscription = timer(0, intervalMs, options.scheduler ?? asyncScheduler)
        .pipe(exhaustMap(run))
        .subscribe((report: CheckReport) => {
          options.onReport?.(report);
          if (report.durationMs > intervalMs)
            options.logger.warn({ ...report, intervalMs }, 'heartbeat check took longer than the interval');
          else if (report.opened > 0) options.logger.info(report, 'heartbeat check paged missed heartbeats');
        });
    },
    /** Resolves once the tick under way (if any) has ended. */
    idle: () => current,
    async stop() {
      subscription?.unsubscribe();
      await current;
    },
  };
}
