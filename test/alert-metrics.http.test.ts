/**
 * GET /api/v1/alert-metrics and /alert-metrics/reading: what a rule can watch, and a metric's value
 * now as a rule would read it (the dashboard shows it against the threshold before saving).
 */
import test from 'ava';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

test.serial('the metrics list names every registered metric with its unit', async (t) => {
  const caller = app.newTenant();
  const answer = await app.request('GET', '/api/v1/alert-metrics', { caller });
  t.is(answer.status, 200);
  t.deepEqual((answer.body.data as { id: string }[]).map((m) => m.id).sort(), [...BUILTIN_METRIC_IDS].sort());
  t.like(
    (answer.body.data as { id: string }[]).find((m) => m.id === 'queue_time_seconds'),
    { unit: 'seconds' },
  );
});

test.serial(
  'a reading is the value the evaluator would read, over the window asked, and records nothing',
  async (t) => {
    const caller = app.newTenant();
    await app.request('POST', '/api/v1/simulator/metrics', {
      caller,
      body: { metric: 'queue_time_seconds', value: 42, duration_seconds: 600 },
    });
    const answer = await app.request(
      'GET',
      '/api/v1/alert-metrics/reading?metric=queue_time_seconds&window_minutes=0',
      { caller },
    );
    t.is(answer.status, 200);
    t.like(answer.body.data, { metric: 'queue_time_seconds', value: 42, window_minutes: 1, cluster_id: null });
    t.deepEqual((await app.request('GET', '/api/v1/alert-rules', { caller })).body.data, []);
  },
);

test.serial('an unknown metric, window or cluster is a 400 naming the field', async (t) => {
  const caller = app.newTenant();
  const unknown = await app.request('GET', '/api/v1/alert-metrics/reading?metric=nope', { caller });
  t.is(unknown.status, 400);
  t.is(unknown.body.errors[0].path, '/metric');
  t.regex(unknown.body.errors[0].message, /queue_time_seconds/);
  const window = await app.request(
    'GET',
    '/api/v1/alert-metrics/reading?metric=queue_time_seconds&window_minutes=2000',
    { caller },
  );
  t.is(window.status, 400);
  t.is(window.body.errors[0].path, '/window_minutes');
  const cluster = await app.request(
    'GET',
    '/api/v1/alert-metrics/reading?metric=queue_time_seconds&cluster_id=not-a-cluster',
    { caller },
  );
  t.is(cluster.status, 400);
  t.is(cluster.body.errors[0].path, '/cluster_id');
  const [known] = simulatedClusters(caller.envId);
  const scoped = await app.request(
    'GET',
    `/api/v1/alert-metrics/reading?metric=queue_time_seconds&cluster_id=${known!.id}`,
    { caller },
  );
  t.is(scoped.status, 200);
  t.is(scoped.body.data.cluster_id, known!.id);
});
