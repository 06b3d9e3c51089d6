/**
 * The /metrics rendering (src/metrics-collect.ts): a metric whose collect throws is left out and
 * counted, never the whole answer; a guarded read keeps the metric's last value.
 */
import test from 'ava';
import { Counter, Gauge, Registry } from 'prom-client';
import { collectGuarded, renderMetrics } from '../src/metrics-collect.js';
import { metricsOf } from './support/prometheus-text.js';

test('a metric whose collect throws is left out and counted; every other metric is rendered as the registry renders it', async (t) => {
  const registry = new Registry();
  new Counter({ name: 'kept_total', help: 'kept', registers: [registry] }).inc(3);
  new Gauge({
    name: 'unreadable',
    help: 'reads a store that is down',
    registers: [registry],
    collect() {
      throw new Error('the store is down');
    },
  });
  await t.throwsAsync(registry.metrics(), { message: 'the store is down' }, 'what prom-client does on its own');
  const text = await renderMetrics(registry);
  const metrics = metricsOf(text);
  t.is(metrics.sum('kept_total'), 3);
  t.false(metrics.has('unreadable'));
  t.false(text.includes('# TYPE unreadable'));
  t.is(metrics.sum('metrics_collect_failures_total', { metric: 'unreadable' }), 1);
  t.is(metricsOf(await renderMetrics(registry)).sum('metrics_collect_failures_total', { metric: 'unreadable' }), 2);
});

test('a guarded read that fails keeps the last value and counts the failure', async (t) => {
  const registry = new Registry();
  let down = false;
  new Gauge({
    name: 'windows',
    help: 'read from a store',
    registers: [registry],
    collect() {
      return collectGuarded(registry, 'windows', async () => {
        if (down) throw new Error('the store is down');
        this.set(4);
      });
    },
  });
  t.is(metricsOf(await renderMetrics(registry)).sum('windows'), 4);
  down = true;
  const during = metricsOf(await renderMetrics(registry));
  t.is(during.sum('windows'), 4);
  t.is(during.sum('metrics_collect_failures_total', { metric: 'windows' }), 1);
});
