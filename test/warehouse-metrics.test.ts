import test from 'ava';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import {
  InvalidMetricRequestError,
  UnknownMetricError,
  WarehouseUnavailableError,
  type MetricRequest,
  type WarehouseGateway,
} from '../src/gateways/warehouse/port.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';

/** A gateway whose metric reading is scripted and counted; the other questions are never asked here. */
function countingGateway(valueOf: (request: MetricRequest) => number | Error = () => 1) {
  const reads: MetricRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const unused = async () => {
    throw new Error('not used by the metric registry tests');
  };
  const gateway: WarehouseGateway = {
    cluster: unused,
    slowQueries: async () => [
      {
        query_id: 1,
        exec_time_seconds: 400,
        user_name: 'a',
        database: 'd',
        wlm_queue: 'q',
        query_text: 'x',
        cluster_id: 'c1',
      },
      {
        query_id: 2,
        exec_time_seconds: 900,
        user_name: 'a',
        database: 'd',
        wlm_queue: 'q',
        query_text: 'y',
        cluster_id: 'c2',
      },
    ],
    spillQueries: unused,
    vacuumCandidates: unused,
    tableAlerts: unused,
    storage: unused,
    queryVisibility: unused,
    finishedQueries: unused,
    tableStats: unused,
    wlmQueues: unused,
    alertLog: unused,
    runningQueries: unused,
    longestQueries: unused,
    queryDetails: unused,
    explain: unused,
    queueWaits: unused,
    lockWaits: unused,
    commitQueue: unused,
    loadErrors: unused,
    userWorkload: unused,
    concurrencyScaling: unused,
    schemas: unused,
    tables: unused,
    columns: unused,
    async readMetric(request) {
      reads.push(request);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      const value = valueOf(request);
      if (value instanceof Error) throw value;
      return value;
    },
  };
  return { gateway, reads, maxInFlight: () => maxInFlight };
}

test('the registry knows the seven SPEC metrics, with units', (t) => {
  const registry = createMetricRegistry({ gateway: countingGateway().gateway });
  t.deepEqual(registry.ids(), BUILTIN_METRIC_IDS);
  t.deepEqual(
    registry.describe().map((m) => [m.id, m.unit]),
    [
      ['query_runtime_seconds', 'seconds'],
      ['disk_spill_gb', 'GB'],
      ['queue_time_seconds', 'seconds'],
      ['storage_utilization_pct', 'percent'],
      ['unsorted_pct', 'percent'],
      ['active_query_count', 'count'],
      ['cpu_utilization_pct', 'percent'],
    ],
  );
});

test('readMany makes one gateway read per distinct (env, cluster, metric, window)', async (t) => {
  const { gateway, reads } = countingGateway((r) => r.windowMinutes);
  const registry = createMetricRegistry({ gateway });
  const requests: MetricRequest[] = [];
  // 40 rules over 4 distinct combinations.
  for (let rule = 0; rule < 40; rule++) {
    requests.push({
      envId: rule % 2 ? 'env-a' : 'env-b',
      clusterId: rule % 4 < 2 ? undefined : 'c1',
      metric: 'unsorted_pct',
      windowMinutes: 15,
    });
  }
  const results = await registry.readMany(requests);
  t.is(reads.length, 4);
  t.is(registry.providerReads, 4);
  t.is(results.length, 40);
  results.forEach((result, i) => {
    t.is(result.request, requests[i]!);
    t.deepEqual(result.ok && result.value, 15);
  });
});

const DISTINCT: [string, Partial<MetricRequest>][] = [
  ['environment', { envId: 'env-z' }],
  ['cluster', { clusterId: 'c9' }],
  ['metric', { metric: 'cpu_utilization_pct' }],
  ['window', { windowMinutes: 60 }],
];
for (const [part, change] of DISTINCT) {
  test(`a different ${part} is a different combination`, async (t) => {
    const { gateway, reads } = countingGateway();
    const base: MetricRequest = { envId: 'env-a', metric: 'unsorted_pct', windowMinutes: 15 };
    await createMetricRegistry({ gateway }).readMany([base, { ...base, ...change }, base]);
    t.is(reads.length, 2);
  });
}

test('a failing combination fails only its own requests', async (t) => {
  const outage = new WarehouseUnavailableError('env-b', 'paused', 'cluster x of environment env-b is paused');
  const { gateway } = countingGateway((r) => (r.envId === 'env-b' ? outage : 7));
  const results = await createMetricRegistry({ gateway }).readMany([
    { envId: 'env-a', metric: 'unsorted_pct', windowMinutes: 5 },
    { envId: 'env-b', metric: 'unsorted_pct', windowMinutes: 5 },
    { envId: 'env-a', metric: 'no_such_metric', windowMinutes: 5 },
    { envId: 'env-a', metric: 'unsorted_pct', windowMinutes: 0 },
  ]);
  t.deepEqual(
    results.map((r) => (r.ok ? r.value : r.error.constructor.name)),
    [7, 'WarehouseUnavailableError', 'UnknownMetricError', 'InvalidMetricRequestError'],
  );
  t.regex(
    (results[2] as { error: Error }).error.message,
    /known metrics: query_runtime_seconds, .*cpu_utilization_pct/,
  );
});

test('readMany keeps at most `concurrency` reads in flight', async (t) => {
  const { gateway, maxInFlight } = countingGateway();
  const requests = Array.from({ length: 30 }, (_, i) => ({
    envId: `env-${i}`,
    metric: 'unsorted_pct',
    windowMinutes: 5,
  }));
  await createMetricRegistry({ gateway, concurrency: 3 }).readMany(requests);
  t.is(maxInFlight(), 3);
});

test('registering a metric is one call, and it is read like the built-ins', async (t) => {
  const { gateway } = countingGateway();
  const registry = createMetricRegistry({ gateway });
  registry.register('slow_query_count', {
    unit: 'count',
    description: 'Queries executing for more than 5 minutes',
    read: async (g, scope) =>
      (await g.slowQueries(scope.envId)).filter((q) => !scope.clusterId || q.cluster_id === scope.clusterId).length,
  });
  t.true(registry.has('slow_query_count'));
  t.is(await registry.read({ envId: 'e', metric: 'slow_query_count', windowMinutes: 5 }), 2);
  t.is(await registry.read({ envId: 'e', clusterId: 'c2', metric: 'slow_query_count', windowMinutes: 5 }), 1);
  t.throws(() => registry.register('slow_query_count', { unit: 'count', description: '', read: async () => 0 }), {
    instanceOf: InvalidMetricRequestError,
  });
  t.throws(() => registry.register('Bad Id', { unit: 'count', description: '', read: async () => 0 }), {
    instanceOf: InvalidMetricRequestError,
  });
});

test('windows outside 1 minute to 7 days are refused before any read', async (t) => {
  const { gateway, reads } = countingGateway();
  const registry = createMetricRegistry({ gateway });
  for (const windowMinutes of [0, -5, 1.5, 10_081]) {
    await t.throwsAsync(registry.read({ envId: 'e', metric: 'unsorted_pct', windowMinutes }), {
      instanceOf: InvalidMetricRequestError,
    });
  }
  await t.throwsAsync(registry.read({ envId: 'e', metric: 'bogus', windowMinutes: 5 }), {
    instanceOf: UnknownMetricError,
  });
  t.is(reads.length, 0);
});

test('pinned values take precedence and cost no gateway read', async (t) => {
  const { gateway, reads } = countingGateway(() => 3);
  const registry = createMetricRegistry({
    gateway,
    overrides: { pinnedValue: (r) => (r.metric === 'cpu_utilization_pct' ? 88 : undefined) },
  });
  const results = await registry.readMany([
    { envId: 'e', metric: 'cpu_utilization_pct', windowMinutes: 5 },
    { envId: 'e', metric: 'unsorted_pct', windowMinutes: 5 },
  ]);
  t.deepEqual(
    results.map((r) => r.ok && r.value),
    [88, 3],
  );
  t.is(reads.length, 1);
});

test('on the simulated warehouse, a pinned custom metric is read exactly as pinned', async (t) => {
  const now = () => new Date('2025-03-12T14:30:00Z');
  let registryIds: () => readonly string[] = () => [];
  const simulated = createSimulatedWarehouse({ now, knownMetrics: () => registryIds() });
  const registry = createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control });
  registryIds = () => registry.ids();
  registry.register('alert_count', {
    unit: 'count',
    description: 'alerts this week',
    read: async (g, s) => (await g.tableAlerts(s.envId)).length,
  });
  const measured = await registry.read({ envId: 'e1', metric: 'alert_count', windowMinutes: 5 });
  t.true(measured > 0);
  simulated.control.pinMetric({ envId: 'e1', metric: 'alert_count', value: 12345, durationSeconds: 60 });
  t.is(await registry.read({ envId: 'e1', metric: 'alert_count', windowMinutes: 5 }), 12345);
});

test('1,000 combinations over the simulator read each distinct one once', async (t) => {
  const simulated = createSimulatedWarehouse({ now: () => new Date('2025-03-12T14:30:00Z') });
  const registry = createMetricRegistry({ gateway: simulated.gateway });
  const requests: MetricRequest[] = [];
  for (let i = 0; i < 1000; i++) {
    requests.push({ envId: `env-${i % 25}`, metric: BUILTIN_METRIC_IDS[i % 7]!, windowMinutes: [5, 15, 60][i % 3]! });
  }
  const results = await registry.readMany(requests);
  const distinct = new Set(requests.map((r) => `${r.envId}/${r.metric}/${r.windowMinutes}`)).size;
  t.is(registry.providerReads, distinct);
  t.true(results.every((r) => r.ok));
});
