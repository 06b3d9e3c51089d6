/**
 * Collecting /metrics so that one failing metric never blinds the rest. A gauge read from a store
 * when /metrics is scraped fails while that store is down; prom-client's `registry.metrics()` then
 * rejects as a whole, and /metrics answered 503 without the cluster's lease metrics, the ones an
 * operator needs during a store outage (issue 39 §8). A read is guarded here: its failure keeps the
 * metric's last value and counts one `metrics_collect_failures_total{metric}`; and the registry is
 * rendered one metric at a time, so a collect that still throws drops that metric only.
 */
import { Counter, type Registry } from 'prom-client';

const FAILURES = 'metrics_collect_failures_total';

/** The registry's `metrics_collect_failures_total{metric}` (registered on first use). */
export function collectFailures(registry: Registry): Counter<'metric'> {
  return (
    (registry.getSingleMetric(FAILURES) as Counter<'metric'> | undefined) ??
    new Counter({
      name: FAILURES,
      help: 'Scrapes at which a metric could not be read (its store was unavailable): its last value was served, or it was left out',
      labelNames: ['metric'] as const,
      registers: [registry],
    })
  );
}

/** Runs `read`, which sets `metric` from a store; if it fails, the metric keeps its last value and the failure is counted. */
export async function collectGuarded(
  registry: Registry,
  metric: string,
  read: () => void | Promise<void>,
): Promise<void> {
  try {
    await read();
  } catch {
    collectFailures(registry).inc({ metric });
  }
}

/** The registry as Prometheus text, as `registry.metrics()` renders it, except that a metric whose collect throws is left out and counted. */
export async function renderMetrics(registry: Registry): Promise<string> {
  const failures = collectFailures(registry);
  const others = registry.getMetricsAsArray().filter((metric) => metric.name !== FAILURES);
  const texts = await Promise.all(
    others.map(async (metric) => {
      try {
        return await registry.getSingleMetricAsString(metric.name);
      } catch {
        failures.inc({ metric: metric.name });
        return undefined;
      }
    }),
  );
  // The failures last, so that this scrape's failures are in it.
  const rendered = [...texts.filter((text) => text !== undefined), await registry.getSingleMetricAsString(FAILURES)];
  return `${rendered.join('\n\n')}\n`;
}
