import test from 'ava';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import {
  InvalidMetricRequestError,
  UnknownClusterError,
  UnknownMetricError,
  WarehouseUnavailableError,
  type WarehouseGateway,
} from '../src/gateways/warehouse/port.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { queriesOverlapping } from '../src/gateways/warehouse/simulated/workload.js';
import { envLayout } from '../src/gateways/warehouse/simulated/cluster-state.js';

const ENV = '5b7c1f2e-9a8d-4c3b-8e2f-1a2b3c4d5e6f';
const TWO_CLUSTER_ENV = 'b';
const START = Date.parse('2025-03-12T14:30:00Z');

function simulator(startMs = START) {
  let nowMs = startMs;
  const warehouse = createSimulatedWarehouse({ now: () => new Date(nowMs) });
  return { ...warehouse, advance: (seconds: number) => void (nowMs += seconds * 1000) };
}

const everything = async (gateway: WarehouseGateway, envId: string) => ({
  cluster: await gateway.cluster(envId),
  slow: await gateway.slowQueries(envId),
  spill: await gateway.spillQueries(envId),
  vacuum: await gateway.vacuumCandidates(envId),
  alerts: await gateway.tableAlerts(envId),
  storage: await gateway.storage(envId),
  metrics: await Promise.all(
    BUILTIN_METRIC_IDS.map((metric) => gateway.readMetric({ envId, metric, windowMinutes: 30 })),
  ),
});

test('the same env_id at the same instant gives exactly the same warehouse, from a fresh simulator', async (t) => {
  t.deepEqual(await everything(simulator().gateway, ENV), await everything(simulator().gateway, ENV));
});

test('different environments get different clusters', async (t) => {
  const { gateway } = simulator();
  const a = await gateway.cluster(ENV);
  const b = await gateway.cluster('another-env');
  t.notDeepEqual(
    a.clusters.map((c) => c.cluster_id),
    b.clusters.map((c) => c.cluster_id),
  );
});

test('a known instant has the exact figures the model defines', async (t) => {
  const { gateway } = simulator();
  const health = await gateway.cluster(ENV);
  t.deepEqual(health.totals, { node_count: 4, slices: 8, capacity_gb: 640, used_gb: 295.62, pct_used: 46.19 });
  const slow = await gateway.slowQueries(ENV);
  t.deepEqual(
    slow.map((q) => q.exec_time_seconds),
    [1259, 1042, 653, 479],
  );
});

test('the workload changes over time: running queries age, new ones arrive, old ones finish', async (t) => {
  const sim = simulator();
  const before = await sim.gateway.slowQueries(ENV);
  sim.advance(1);
  const after = await sim.gateway.slowQueries(ENV);
  const aged = after.filter((q) =>
    before.some((b) => b.query_id === q.query_id && b.exec_time_seconds + 1 === q.exec_time_seconds),
  );
  t.is(aged.length, after.length);
  sim.advance(3 * 3600);
  const later = await sim.gateway.slowQueries(ENV);
  t.notDeepEqual(
    later.map((q) => q.query_id),
    after.map((q) => q.query_id),
  );
});

test('the nightly ETL window brings queue waits and spill; business hours bring dashboards', async (t) => {
  const cluster = envLayout(ENV).clusters[0]!;
  const tables = envLayout(ENV).tables.get(cluster.id)!;
  const hourOf = (utcHour: number) => {
    const from = Date.parse(`2025-03-12T${String(utcHour).padStart(2, '0')}:00:00Z`) / 1000;
    return queriesOverlapping(cluster, tables, from, from + 3600).filter((q) => q.submittedAt >= from);
  };
  const night = hourOf(2);
  const day = hourOf(11);
  const share = (queries: typeof night, kind: string) => queries.filter((q) => q.kind === kind).length / queries.length;
  t.true(share(night, 'etl') > share(day, 'etl'));
  t.true(share(day, 'dashboard') > share(night, 'dashboard'));
  t.true(day.length > night.length);
});

test('the top spill queries are a heavy-tailed slope, not a plateau at the cap, and the same for the same instant', async (t) => {
  const daySpan: number[] = [];
  for (const envId of [ENV, TWO_CLUSTER_ENV, 'another-env']) {
    const sim = simulator(Date.parse('2025-03-12T00:00:00Z'));
    for (let hour = 0; hour < 24; hour += 3) {
      const spill = (await sim.gateway.spillQueries(envId)).map((q) => q.spill_mb);
      t.is(spill.length, 20, `${envId} at +${hour}h`);
      t.deepEqual(
        spill,
        [...spill].sort((a, b) => b - a),
        `${envId} at +${hour}h: largest first`,
      );
      t.true(
        new Set(spill).size >= spill.length - 2,
        `${envId} at +${hour}h: distinct values, not a cap repeated: ${spill.join(',')}`,
      );
      t.true(spill[0]! >= 3 * spill.at(-1)!, `${envId} at +${hour}h: ${spill.join(',')}`);
      daySpan.push(...spill);
      sim.advance(3 * 3600);
    }
  }
  t.true(Math.max(...daySpan) >= 10 * Math.min(...daySpan), 'a day of top lists spans at least an order of magnitude');
  const again = simulator(Date.parse('2025-03-12T21:00:00Z'));
  const first = simulator(Date.parse('2025-03-12T21:00:00Z'));
  t.deepEqual(await again.gateway.spillQueries(ENV), await first.gateway.spillQueries(ENV));
});

test('metrics are scoped by cluster_id; unknown clusters and metrics fail typed', async (t) => {
  const { gateway } = simulator();
  const { clusters } = await gateway.cluster(TWO_CLUSTER_ENV);
  t.is(clusters.length, 2);
  const [main, etl] = clusters.map((c) => c.cluster_id) as [string, string];
  const read = (clusterId: string | undefined, metric: string) =>
    gateway.readMetric({ envId: TWO_CLUSTER_ENV, clusterId, metric, windowMinutes: 60 });
  t.is(
    await read(undefined, 'storage_utilization_pct'),
    Math.max(await read(main, 'storage_utilization_pct'), await read(etl, 'storage_utilization_pct')),
  );
  t.is(
    await read(undefined, 'active_query_count'),
    (await read(main, 'active_query_count')) + (await read(etl, 'active_query_count')),
  );
  t.is(await read(main, 'storage_utilization_pct'), clusters[0]!.pct_used as number);

  const error = await t.throwsAsync(read('rs-nope-main', 'unsorted_pct'), { instanceOf: UnknownClusterError });
  t.deepEqual(error?.knownClusters, [main, etl]);
  await t.throwsAsync(read(main, 'warp_speed'), { instanceOf: UnknownMetricError });
  await t.throwsAsync(gateway.readMetric({ envId: ENV, metric: 'unsorted_pct', windowMinutes: 0 }), {
    instanceOf: InvalidMetricRequestError,
  });
});

test('metric values stay in their ranges across a day', async (t) => {
  const sim = simulator();
  for (let hour = 0; hour < 24; hour++) {
    const [runtime, spill, queue, storage, unsorted, active, cpu] = await Promise.all(
      BUILTIN_METRIC_IDS.map((metric) => sim.gateway.readMetric({ envId: ENV, metric, windowMinutes: 15 })),
    );
    t.true(runtime! >= 0 && runtime! <= 5400);
    t.true(spill! >= 0 && queue! >= 0 && queue! <= 900);
    for (const pct of [storage!, unsorted!, cpu!]) t.true(pct >= 0 && pct <= 100);
    t.true(Number.isInteger(active));
    sim.advance(3600);
  }
});

test('vacuum candidates are over a threshold and ranked by unsorted percentage', async (t) => {
  const { gateway } = simulator();
  const candidates = await gateway.vacuumCandidates(ENV);
  t.true(candidates.length > 0);
  for (const table of candidates) t.true(table.unsorted_pct > 5 || table.stats_off > 10);
  t.deepEqual(
    candidates.map((c) => c.unsorted_pct),
    candidates.map((c) => c.unsorted_pct).sort((a, b) => b - a),
  );
  const storage = await gateway.storage(ENV);
  const listed = new Set(candidates.map((c) => `${c.schema}.${c.table_name}`));
  for (const table of storage.filter((s) => s.unsorted_pct > 5))
    t.true(listed.has(`${table.schema}.${table.table_name}`));
});

test('alerts cover the last 7 days only and name a query of that cluster', async (t) => {
  const { gateway } = simulator();
  const alerts = await gateway.tableAlerts(ENV);
  const weekAgo = START - 7 * 86_400_000;
  for (const alert of alerts) {
    const seen = Date.parse(alert.last_seen);
    t.true(seen >= weekAgo && seen <= START);
  }
  t.true(alerts.reduce((sum, a) => sum + a.count, 0) > 50);
});

test('pausing one environment fails all of its calls and leaves the others alone', async (t) => {
  const { gateway, control } = simulator();
  control.setPaused(ENV, true);
  const calls: [string, () => Promise<unknown>][] = [
    ['cluster', () => gateway.cluster(ENV)],
    ['slowQueries', () => gateway.slowQueries(ENV)],
    ['spillQueries', () => gateway.spillQueries(ENV)],
    ['vacuumCandidates', () => gateway.vacuumCandidates(ENV)],
    ['tableAlerts', () => gateway.tableAlerts(ENV)],
    ['storage', () => gateway.storage(ENV)],
    ['readMetric', () => gateway.readMetric({ envId: ENV, metric: 'unsorted_pct', windowMinutes: 5 })],
  ];
  const [clusterId] = control.status(ENV).clusters;
  for (const [name, call] of calls) {
    const error = await t.throwsAsync(call(), { instanceOf: WarehouseUnavailableError }, name);
    t.is(error?.message, `cluster ${clusterId} of environment ${ENV} is paused`);
    t.is(error?.reason, 'paused');
  }
  await t.notThrowsAsync(gateway.cluster('another-env'));
  control.setPaused(ENV, false);
  await t.notThrowsAsync(gateway.cluster(ENV));
});

test('pins validate the metric, the cluster, the value and the duration', (t) => {
  const { control } = simulator();
  t.throws(() => control.pinMetric({ envId: ENV, metric: 'nope', value: 1, durationSeconds: 5 }), {
    instanceOf: UnknownMetricError,
    message: /known metrics: query_runtime_seconds/,
  });
  t.throws(
    () => control.pinMetric({ envId: ENV, clusterId: 'x', metric: 'unsorted_pct', value: 1, durationSeconds: 5 }),
    { instanceOf: UnknownClusterError },
  );
  t.throws(() => control.pinMetric({ envId: ENV, metric: 'unsorted_pct', value: Number.NaN, durationSeconds: 5 }), {
    instanceOf: InvalidMetricRequestError,
  });
  t.throws(() => control.pinMetric({ envId: ENV, metric: 'unsorted_pct', value: 1, durationSeconds: 0 }), {
    instanceOf: InvalidMetricRequestError,
  });
});

test('pins expire, can be removed, and show in the status', (t) => {
  const sim = simulator();
  sim.control.pinMetric({ envId: ENV, metric: 'cpu_utilization_pct', value: 99, durationSeconds: 10 });
  t.is(sim.control.pinnedValue({ envId: ENV, metric: 'cpu_utilization_pct', windowMinutes: 5 }), 99);
  t.is(sim.control.status(ENV).pins.length, 1);
  sim.advance(10);
  t.is(sim.control.pinnedValue({ envId: ENV, metric: 'cpu_utilization_pct', windowMinutes: 5 }), undefined);
  t.is(sim.control.status(ENV).pins.length, 0);
  sim.control.pinMetric({ envId: ENV, metric: 'cpu_utilization_pct', value: 1, durationSeconds: 10 });
  t.true(sim.control.unpinMetric({ envId: ENV, metric: 'cpu_utilization_pct' }));
  t.is(sim.control.pinnedValue({ envId: ENV, metric: 'cpu_utilization_pct', windowMinutes: 5 }), undefined);
});
