/** The simulated cluster's diagnostic answers agree with each other and with its workload, and move with time. */
import test from 'ava';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';

const ENV = 'env-a';
const ETL_WINDOW = Date.parse('2026-03-02T02:30:00Z');
const HOUR = 3_600_000;

function simulator(startMs = ETL_WINDOW) {
  let nowMs = startMs;
  const { gateway } = createSimulatedWarehouse({ now: () => new Date(nowMs) });
  return { gateway, advance: (ms: number) => void (nowMs += ms) };
}

test('the same environment and instant give the same diagnostics, from a fresh simulator', async (t) => {
  const ask = async () => {
    const { gateway } = simulator();
    return [
      await gateway.runningQueries(ENV),
      await gateway.lockWaits(ENV),
      await gateway.commitQueue(ENV, 6),
      await gateway.loadErrors(ENV, 24),
      await gateway.concurrencyScaling(ENV, 24),
    ];
  };
  t.deepEqual(await ask(), await ask());
});

test('every lock wait is between two loads of the same table that are running now, the holder started first', async (t) => {
  const { gateway } = simulator();
  const running = new Map(
    (await gateway.runningQueries(ENV))
      .filter((q) => q.state === 'running')
      .map((q) => [`${q.cluster_id}/${q.pid}`, q]),
  );
  const waits = await gateway.lockWaits(ENV);
  t.true(waits.length > 0);
  for (const wait of waits) {
    const waiter = running.get(`${wait.cluster_id}/${wait.waiting_pid}`);
    const holder = running.get(`${wait.cluster_id}/${wait.blocking_pid}`);
    t.truthy(waiter && holder);
    t.true(waiter!.query_text.startsWith(`INSERT INTO ${wait.schema}.${wait.table_name} `));
    t.true(holder!.query_text.startsWith(`INSERT INTO ${wait.schema}.${wait.table_name} `));
    t.true(wait.blocking_seconds >= wait.waiting_seconds);
    t.is(wait.waiting_seconds, waiter!.exec_seconds);
  }
});

test('the commit queue serves one commit at a time: waits are never negative, the worst come first', async (t) => {
  const { gateway } = simulator();
  const { summaries, worst } = await gateway.commitQueue(ENV, 24);
  t.true(summaries.length > 0);
  t.true(worst.length > 0 && worst.length <= 20);
  for (const [i, commit] of worst.entries()) {
    t.true((commit.queue_seconds ?? -1) >= 0 && commit.commit_seconds > 0);
    if (i > 0) t.true((worst[i - 1]!.queue_seconds ?? 0) >= (commit.queue_seconds ?? 0));
  }
  for (const summary of summaries) t.true(summary.max_queue_seconds! >= summary.avg_queue_seconds!);
  // The users who commit are the loaders of the workload.
  t.true(worst.every((commit) => ['etl_airflow', 'dbt_runner'].includes(commit.user_name)));
});

test('load errors and scaling periods stay inside the look-back and grow as time passes', async (t) => {
  const { gateway, advance } = simulator();
  const errors = await gateway.loadErrors(ENV, 24);
  t.true(errors.length > 0);
  t.true(
    errors.every(
      (e, i) =>
        Date.parse(e.time) >= ETL_WINDOW - 24 * HOUR &&
        Date.parse(e.time) <= ETL_WINDOW &&
        (i === 0 || errors[i - 1]!.time >= e.time),
    ),
  );
  const periods = await gateway.concurrencyScaling(ENV, 24);
  t.true(periods.length > 0);
  t.true(periods.every((p) => p.usage_seconds >= 60 && p.queries >= 1 && p.start_time < p.end_time));
  // The same start, an hour later: the hour that passed adds its finished queries.
  const before = (await gateway.userWorkload(ENV, 24)).reduce((sum, u) => sum + u.queries, 0);
  advance(HOUR);
  const after = (await gateway.userWorkload(ENV, 25)).reduce((sum, u) => sum + u.queries, 0);
  t.true(after > before);
});

test('a running query found by id agrees with the running list, and its steps share out the time it ran', async (t) => {
  const { gateway } = simulator();
  const running = (await gateway.runningQueries(ENV)).find(
    (q) => q.state === 'running' && q.query_text.startsWith('SELECT'),
  );
  t.truthy(running);
  const details = await gateway.queryDetails(ENV, running!.query_id);
  t.like(details, {
    query_id: running!.query_id,
    user_name: running!.user_name,
    queue: running!.queue,
    status: 'running',
    end_time: null,
  });
  const stepSeconds = details!.steps.reduce((sum, step) => sum + step.max_seconds, 0);
  t.true(Math.abs(stepSeconds - details!.exec_seconds) < 0.05);
  t.is(
    await gateway.queryDetails(ENV, running!.query_id + 8 * 60 * 24 * 30),
    null,
    'a query of next month does not exist yet',
  );
});

test('columns follow the table traits: the KEY column is the distkey, the first sort key column is sortkey 1', async (t) => {
  const { gateway } = simulator();
  for (const table of await gateway.tables(ENV, 'analytics')) {
    const columns = (await gateway.columns(ENV, 'analytics', table.table_name)).filter(
      (c) => c.cluster_id === table.cluster_id,
    );
    const key = /^KEY\((\w+)\)$/.exec(table.dist_style)?.[1];
    t.deepEqual(
      columns.filter((c) => c.distkey).map((c) => c.column_name),
      key ? [key] : [],
      table.table_name,
    );
    if (table.sortkey1 && !table.sortkey1.startsWith('AUTO'))
      t.is(columns.find((c) => c.sortkey === 1)?.column_name, table.sortkey1);
    t.deepEqual(
      columns.map((c) => c.position),
      columns.map((_, i) => i + 1),
    );
  }
});

test('a look-back outside 1-168 whole hours is refused', async (t) => {
  const { gateway } = simulator();
  for (const hours of [0, 169, 2.5]) await t.throwsAsync(gateway.queueWaits(ENV, hours), { instanceOf: RangeError });
});
