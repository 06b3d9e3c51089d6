/**
 * One failing gauge never blinds /metrics (issue 39 §8: while MongoDB was down, /metrics answered
 * 503 because `maintenance_windows_active`'s collect threw, hiding the cluster's lease metrics
 * exactly when they mattered). With every read of the read store failing, GET /metrics is 200 with
 * the other series; the gauges that read the store keep their last value and count the failure in
 * `metrics_collect_failures_total{metric}`.
 */
import test from 'ava';
import { ReadStoreUnavailableError } from '../src/readstore/port.js';
import { metricsOf } from './support/prometheus-text.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.close();
});

/** Makes every read of the platform's read store fail, as a MongoDB outage does, until `restore()`. */
function failReads(readStore: object) {
  const store = readStore as Record<'get' | 'find' | 'count', unknown>;
  const originals = { get: store.get, find: store.find, count: store.count };
  for (const name of ['get', 'find', 'count'] as const) {
    store[name] = async () => {
      throw new ReadStoreUnavailableError('the read store is down (test)');
    };
  }
  return { restore: () => Object.assign(store, originals) };
}

const scrape = async () => {
  const response = await fetch(`${app.url}/metrics`);
  return { status: response.status, text: await response.text() };
};

test.serial(
  'with the read store down, /metrics is 200 with the cluster, HTTP and process metrics; the store-read gauges keep their last value and count the failure',
  async (t) => {
    const caller = app.newTenant();
    const now = Date.now();
    const created = await app.request('POST', '/api/v1/maintenance-windows', {
      caller,
      body: {
        name: 'Resize prod',
        reason: 'elastic resize',
        matcher: { all_rules: true },
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const before = await scrape();
    t.is(before.status, 200);
    t.is(metricsOf(before.text).sum('maintenance_windows_active'), 1);

    const outage = failReads(app.platform.readStore);
    try {
      const during = await scrape();
      t.is(during.status, 200, during.text);
      const metrics = metricsOf(during.text);
      for (const name of [
        'cluster_members',
        'cluster_owned_work',
        'http_request_duration_seconds_count',
        'projection_lag_events',
        'process_cpu_user_seconds_total',
      ]) {
        t.true(metrics.has(name), `${name} is still exported`);
      }
      // Counters with labels that nothing has counted yet show their TYPE line only.
      for (const name of ['cluster_lease_renewals_total', 'cluster_takeovers_total']) {
        t.true(during.text.includes(`# TYPE ${name} counter`), `${name} is still exported`);
      }
      t.is(metrics.sum('maintenance_windows_active'), 1, 'the last value is kept, not dropped to 0');
      t.is(metrics.sum('metrics_collect_failures_total', { metric: 'maintenance_windows_active' }), 1);
      t.is(metrics.sum('metrics_collect_failures_total', { metric: 'cluster_owned_work' }), 1);
    } finally {
      outage.restore();
    }
    const after = metricsOf((await scrape()).text);
    t.is(after.sum('metrics_collect_failures_total', { metric: 'maintenance_windows_active' }), 1, 'no new failure');
  },
);
