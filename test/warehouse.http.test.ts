/** The six warehouse endpoints and the simulator's steering, through the real app and tokens. */
import test from 'ava';
import { startTestApp, type TestApp } from './support/test-app.js';
import { answersBare, payloadOf } from './support/answer-shape.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const endpoints = [
  ['/warehouse/cluster', ['clusters', 'nodes', 'totals']],
  ['/warehouse/queries/slow', ['queries']],
  ['/warehouse/queries/spill', ['queries']],
  ['/warehouse/tables/vacuum', ['tables']],
  ['/warehouse/tables/alerts', ['alerts']],
  ['/warehouse/storage', ['tables']],
] as const;

for (const [path, keys] of endpoints) {
  test(`GET ${path} answers for any environment, with and without /api/v1`, async (t) => {
    const caller = app.newTenant();
    for (const prefix of ['', '/api/v1']) {
      const response = await app.request('GET', `${prefix}${path}`, { caller });
      t.is(response.status, 200, `${prefix}${path}`);
      t.true(answersBare(path) ? response.body.success === undefined : response.body.success);
      const payload = payloadOf(path, response.body);
      for (const key of keys) t.true(Array.isArray(payload[key]) || typeof payload[key] === 'object', key);
      t.false(Number.isNaN(Date.parse(payload.generated_at)));
    }
  });
}

test('slow query and storage records carry the spec fields', async (t) => {
  const caller = app.newTenant();
  const storage = await app.request('GET', '/warehouse/storage', { caller });
  const table = storage.body.tables[0];
  for (const field of [
    'schema',
    'table_name',
    'size_mb',
    'tbl_rows',
    'unsorted_pct',
    'pct_ghost_rows',
    'dist_style',
    'sortkey1',
  ])
    t.true(field in table, field);
  t.true(Number.isInteger(table.size_mb));
  const slow = await app.request('GET', '/warehouse/queries/slow', { caller });
  for (const query of slow.body.queries) {
    for (const field of ['query_id', 'exec_time_seconds', 'user_name', 'database', 'wlm_queue', 'query_text'])
      t.true(field in query, field);
    t.true(query.exec_time_seconds > 300);
  }
});

test('pausing the cluster turns every warehouse endpoint into a descriptive 503 until it is resumed; other environments are unaffected', async (t) => {
  const caller = app.newTenant();
  const other = app.newTenant();
  const paused = await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: true } });
  t.is(paused.status, 200);
  for (const [path] of endpoints) {
    const response = await app.request('GET', path, { caller });
    t.is(response.status, 503, path);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.regex(response.body.detail, /paused/);
    t.regex(response.body.detail, new RegExp(caller.envId));
  }
  t.is((await app.request('GET', '/warehouse/cluster', { caller: other })).status, 200);
  await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: false } });
  for (const [path] of endpoints) t.is((await app.request('GET', path, { caller })).status, 200, path);
});

test('the simulator validates what it is asked to pin', async (t) => {
  const caller = app.newTenant();
  const unknown = await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'vibes', value: 1, duration_seconds: 60 },
  });
  t.is(unknown.status, 400);
  t.regex(JSON.stringify(unknown.body), /queue_time_seconds/);
  t.is(
    (
      await app.request('POST', '/api/v1/simulator/metrics', {
        caller,
        body: { metric: 'queue_time_seconds', value: 'high', duration_seconds: 60 },
      })
    ).status,
    400,
  );
  t.is((await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: 'yes' } })).status, 400);
  t.is(
    (await app.request('POST', '/simulator/cluster', { caller, body: { paused: true } })).status,
    404,
    'served under /api/v1 only',
  );
});

test('evaluator and warehouse metrics are exported', async (t) => {
  await app.platform.evaluator.tick();
  const metrics = await app.request('GET', '/metrics');
  t.regex(metrics.body, /evaluator_tick_duration_seconds_count [1-9]/);
  t.regex(metrics.body, /evaluator_rules_evaluated_total/);
  t.regex(metrics.body, /evaluator_metric_read_errors_total/);
  t.regex(metrics.body, /incidents_triggered_total/);
});

test('nothing is cached: two reads a second apart on the live simulated workload differ', async (t) => {
  let clock = Date.parse('2026-11-20T02:30:00Z'); // inside the nightly ETL window: long runners
  const timed = await startTestApp({ now: () => new Date(clock) });
  try {
    const caller = timed.newTenant();
    for (const path of ['/warehouse/queries/slow', '/warehouse/storage', '/warehouse/cluster']) {
      const first = await timed.request('GET', path, { caller });
      clock += 1000;
      const second = await timed.request('GET', path, { caller });
      t.is(first.status, 200);
      t.not(payloadOf(path, first.body).generated_at, payloadOf(path, second.body).generated_at, path);
      if (path === '/warehouse/queries/slow') {
        t.true(first.body.queries.length > 0, 'the ETL window has long runners');
        t.notDeepEqual(first.body.queries, second.body.queries, 'running queries aged by a second');
      }
    }
  } finally {
    await timed.close();
  }
});
