/**
 * The NotifyPort the platform uses: routes each target to its medium's adapter and records every
 * delivery in Prometheus metrics:
 *   notifications_sent_total{medium, outcome}   outcome = "delivered" or the error kind
 *   notification_delivery_seconds{medium}       first attempt to outcome, retries included
 * It keeps the port's promise never to throw: an adapter that throws (a bug) becomes a failed
 * outcome, logged with the error and reported without its message, which might quote a secret.
 * Excerpts and error messages leave it scrubbed of the target's secrets (secret-scrubbing.ts).
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { scrubOutcome } from './secret-scrubbing.js';
import { describeTarget } from './target-description.js';
import type { AlertMessage, DeliveryOutcome, MediumAdapter, NotifyMedium, NotifyPort, NotifyTarget } from './port.js';

export type NotifyAdapters = { [M in NotifyMedium]: MediumAdapter<Extract<NotifyTarget, { medium: M }>> };

export interface NotifierOptions {
  adapters: NotifyAdapters;
  /** The platform's registry (src/metrics.ts, `registry`). */
  registry: Registry;
  logger?: { error(details: object, message: string): void };
}

/** One metric per registry, even when several notifiers share it (tests, re-wiring). */
function registered<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function createNotifier(options: NotifierOptions): NotifyPort {
  const { registry } = options;
  const sent = registered(
    registry,
    'notifications_sent_total',
    () =>
      new Counter({
        name: 'notifications_sent_total',
        help: 'Notification deliveries by medium and outcome (delivered, or the error kind)',
        labelNames: ['medium', 'outcome'] as const,
        registers: [registry],
      }),
  );
  const duration = registered(
    registry,
    'notification_delivery_seconds',
    () =>
      new Histogram({
        name: 'notification_delivery_seconds',
        help: 'Time from the first attempt of a delivery to its outcome, retries included',
        labelNames: ['medium'] as const,
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers: [registry],
      }),
  );

  async function deliverWith(
    target: NotifyTarget,
    message: AlertMessage,
    idempotencyKey: string,
  ): Promise<DeliveryOutcome> {
    const adapter = options.adapters[target.medium] as MediumAdapter | undefined;
    if (!adapter) {
      return {
        ok: false,
        medium: target.medium,
        target: '-',
        latency_ms: 0,
        error: { kind: 'invalid_target', message: `no adapter for the medium "${String(target.medium)}"` },
        attempts: 0,
      };
    }
    try {
      return await adapter.deliver(target, message, idempotencyKey);
    } catch (error) {
      options.logger?.error(
        { err: error, medium: target.medium, incidentId: message.incidentId },
        'notification adapter failed unexpectedly',
      );
      return {
        ok: false,
        medium: target.medium,
        target: describeTarget(target),
        latency_ms: 0,
        error: { kind: 'internal', message: 'the delivery failed unexpectedly' },
        attempts: 0,
      };
    }
  }

  return {
    async deliver(target, message, idempotencyKey) {
      // Scrubbed here, once, because every recorded outcome (test sends, escalation deliveries) passes by.
      const outcome = scrubOutcome(await deliverWith(target, message, idempotencyKey), target);
      sent.inc({ medium: outcome.medium, outcome: outcome.ok ? 'delivered' : (outcome.error?.kind ?? 'failed') });
      duration.observe({ medium: outcome.medium }, outcome.latency_ms / 1000);
      return outcome;
    },
  };
}
