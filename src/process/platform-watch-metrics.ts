/**
 * The platform watch on /metrics: how many subjects of each cause fail now as this instance sees
 * them, incidents opened, opens that could not be recorded (the event store refusing them), and
 * when the evaluator last completed a tick (an outside Prometheus can alert on its age).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** The causes the platform watches (the `cause` label). */
export const PLATFORM_CAUSES = ['evaluator', 'projection', 'delivery', 'event_store', 'sync_job'] as const;
export type PlatformCause = (typeof PLATFORM_CAUSES)[number];

export function platformWatchMetrics(registry: Registry) {
  const failing = new Gauge({
    name: 'platform_watch_failing',
    help: 'Subjects of each platform cause failing now, as this instance sees them (0: all clear)',
    labelNames: ['cause'],
    registers: [registry],
  });
  const opened = new Counter({
    name: 'platform_watch_incidents_opened_total',
    help: 'Platform incidents this instance opened, by cause',
    labelNames: ['cause'],
    registers: [registry],
  });
  const unrecorded = new Counter({
    name: 'platform_watch_open_failures_total',
    help: 'Platform incidents that could not be opened or resolved (the event store refused, no policy is set), by cause',
    labelNames: ['cause'],
    registers: [registry],
  });
  const lastTick = new Gauge({
    name: 'evaluator_last_tick_timestamp_seconds',
    help: "When this instance's evaluator last completed a tick (Unix seconds)",
    registers: [registry],
  });
  for (const cause of PLATFORM_CAUSES) failing.set({ cause }, 0);
  return {
    failing: (cause: PlatformCause, count: number) => failing.set({ cause }, count),
    opened: (cause: PlatformCause) => opened.inc({ cause }),
    unrecorded: (cause: PlatformCause) => unrecorded.inc({ cause }),
    ticked: (at: Date) => lastTick.set(at.getTime() / 1000),
  };
}

export type PlatformWatchMetrics = ReturnType<typeof platformWatchMetrics>;
