/**
 * Prometheus metrics of the platform (prom-client), in one registry served at /metrics.
 * Each part of the platform adds its own metrics through `platformMetrics.registry`.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { collectFailures } from './metrics-collect.js';

export function createPlatformMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Registered from the start, so a scraper sees the series before the first failure.
  collectFailures(registry);
  // Buffers and ArrayBuffers live outside the V8 heap (prom-client counts them only inside
  // nodejs_external_memory_bytes): their own series tells them apart from the rest of RSS.
  new Gauge({
    name: 'nodejs_array_buffers_bytes',
    help: 'Memory held by Buffers and ArrayBuffers (process.memoryUsage().arrayBuffers)',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().arrayBuffers);
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    appendDuration: new Histogram({
      name: 'eventstore_append_duration_seconds',
      help: 'Time to append events (including the group commit)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    appendConflicts: new Counter({
      name: 'eventstore_append_conflicts_total',
      help: 'Appends rejected for a wrong expected revision',
      registers: [registry],
    }),
    projectionLag: new Gauge({
      name: 'projection_lag_events',
      help: 'Events received but not yet applied, per projection',
      labelNames: ['projection'] as const,
      registers: [registry],
    }),
  };
}

export type PlatformMetrics = ReturnType<typeof createPlatformMetrics>;
