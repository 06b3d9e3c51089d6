import test from 'ava';
import { fileEnvironmentResolver, parseEnvironments } from '../src/gateways/warehouse/environments.js';
import { createRedshiftGateway } from '../src/gateways/warehouse/redshift/redshift-gateway.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { startRedshiftDataStandin } from './support/redshift-data-standin.js';

const START = Date.parse('2026-03-02T02:30:00Z');
const MINUTE = 60_000;

function simulated() {
  let nowMs = START;
  const { gateway, control } = createSimulatedWarehouse({ now: () => new Date(nowMs) });
  return { gateway, control, advance: (ms: number) => (nowMs += ms) };
}

test('simulated query history grows with time and windows tile it exactly: no gaps, no repeats', async (t) => {
  const { gateway, advance } = simulated();
  const from = new Date(START - 60 * MINUTE);
  const whole = await gateway.finishedQueries('env-a', { from, to: new Date(START) });
  t.true(whole.length > 60, `an hour of a nightly ETL window has many finished queries (${whole.length})`);
  const parts = [];
  for (let minute = 0; minute < 60; minute += 7) {
    const to = new Date(Math.min(START, from.getTime() + (minute + 7) * MINUTE));
    parts.push(...(await gateway.finishedQueries('env-a', { from: new Date(from.getTime() + minute * MINUTE), to })));
  }
  t.deepEqual(
    parts.map((q) => `${q.cluster_id}/${q.query_id}`).sort(),
    whole.map((q) => `${q.cluster_id}/${q.query_id}`).sort(),
  );
  t.is(new Set(whole.map((q) => `${q.cluster_id}/${q.query_id}`)).size, whole.length);
  for (const query of whole) {
    t.true(Date.parse(query.end_time) >= from.getTime() && Date.parse(query.end_time) < START);
    t.is(query.elapsed_ms, Date.parse(query.end_time) - Date.parse(query.start_time));
    t.true(query.query_text.length > 0 && query.user_name.length > 0 && query.queue.length > 0);
  }
  // The future is not there yet; once the clock passes it, it is.
  const ahead = { from: new Date(START), to: new Date(START + 30 * MINUTE) };
  t.deepEqual(await gateway.finishedQueries('env-a', ahead), []);
  advance(30 * MINUTE);
  t.true((await gateway.finishedQueries('env-a', ahead)).length > 0);
});

test('simulated table stats, WLM queues and alert log answer for every cluster of the environment', async (t) => {
  const { gateway } = simulated();
  const tables = await gateway.tableStats('env-a');
  const clusters = (await gateway.cluster('env-a')).clusters.map((c) => c.cluster_id);
  t.true(tables.length > 5);
  t.deepEqual([...new Set(tables.map((row) => row.cluster_id))].sort(), [...clusters].sort());
  t.true(tables.every((row) => row.skew_rows >= 1 && row.tbl_rows > 0));
  const queues = await gateway.wlmQueues('env-a');
  t.true(queues.length > 0);
  t.true(
    queues.every(
      (queue) => queue.waiting >= 0 && queue.executing >= 0 && (queue.waiting > 0 || queue.avg_wait_ms === 0),
    ),
  );
  const alerts = await gateway.alertLog('env-a', { from: new Date(START - 24 * 60 * MINUTE), to: new Date(START) });
  t.true(alerts.length > 0);
  t.true(alerts.every((alert, i) => i === 0 || alert.event_time >= alerts[i - 1]!.event_time));
});

test('a paused simulated warehouse is unavailable to the sync sources too', async (t) => {
  const { gateway, control } = simulated();
  control.setPaused('env-a', true);
  await t.throwsAsync(gateway.finishedQueries('env-a', { from: new Date(START - MINUTE), to: new Date(START) }), {
    name: 'WarehouseUnavailableError',
  });
});

test('redshift: the sync statements bind their windows with milliseconds and map rows to the port records', async (t) => {
  const standin = await startRedshiftDataStandin();
  t.teardown(() => standin.close());
  const environments = fileEnvironmentResolver(
    parseEnvironments({
      'env-prov': {
        kind: 'provisioned',
        cluster_identifier: 'analytics-prod',
        database: 'dw',
        db_user: 'monitor',
        region: 'eu-west-1',
        schema: 'analytics',
      },
      'env-sls': {
        kind: 'serverless',
        workgroup_name: 'bi',
        database: 'dev',
        secret_arn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:m',
        region: 'eu-west-1',
        schema: 'marts',
      },
    }),
  );
  const gateway = createRedshiftGateway({
    environments,
    clientOptions: {
      endpoint: standin.url,
      credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 's' },
      maxAttempts: 1,
      requestTimeoutMs: 2000,
    },
    backoff: { initialDelayMs: 1, maxDelayMs: 1, factor: 1 },
    sleep: async () => undefined,
  });
  standin.script((statement) =>
    statement.statementName === 'warehouse-watch:sync:query-history'
      ? {
          columns: [
            'query_id',
            'user_name',
            'database',
            'queue',
            'start_time',
            'end_time',
            'elapsed_ms',
            'rows',
            'spilled_bytes',
            'query_text',
          ],
          rows: [
            [
              42,
              'etl',
              'dw',
              'etl_queue',
              '2026-03-02 01:00:00.123456',
              '2026-03-02 01:00:05.5',
              5377,
              10,
              0,
              'select 1',
            ],
          ],
        }
      : { columns: ['queue', 'waiting', 'executing', 'avg_wait_ms'], rows: [['default', 2, 1, '1500.4']] },
  );
  const window = { from: new Date('2026-03-02T01:00:00.250Z'), to: new Date('2026-03-02T02:00:00.000Z') };
  const [query] = await gateway.finishedQueries('env-prov', window);
  t.deepEqual(query, {
    cluster_id: 'analytics-prod',
    query_id: 42,
    user_name: 'etl',
    database: 'dw',
    queue: 'etl_queue',
    start_time: '2026-03-02T01:00:00.123Z',
    end_time: '2026-03-02T01:00:05.500Z',
    elapsed_ms: 5377,
    rows: 10,
    spilled_bytes: 0,
    query_text: 'select 1',
  });
  t.deepEqual(standin.executed[0]!.parameters, { from: '2026-03-02 01:00:00.250', to: '2026-03-02 02:00:00.000' });
  t.deepEqual(await gateway.wlmQueues('env-sls'), [
    { cluster_id: 'bi', queue: 'default', waiting: 2, executing: 1, avg_wait_ms: 1500 },
  ]);
  t.deepEqual(await gateway.alertLog('env-sls', window), [], 'serverless has no STL alert log');
  t.is(standin.executed.length, 2);
});
