/**
 * The simulator's history: a series over past instants answers, instant for instant, what the live
 * gateway reads at that instant (the backtest's promise that replayed history is what the
 * evaluator saw), for every metric, one cluster and all of them, several windows.
 */
import test from 'ava';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import { simulatedMetricSeries } from '../src/gateways/warehouse/simulated/metric-history.js';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';

const envId = '5d0c1b8e-2f4a-4c7e-9d1b-3a6f8e2c0b71';

test('a series equals the live readings at each of its instants', async (t) => {
  let clock = new Date('2026-11-20T00:30:00Z');
  const { gateway } = createSimulatedWarehouse({ now: () => clock });
  // Night (ETL window) into morning, at uneven seconds, as live ticks land.
  const instants = Array.from({ length: 40 }, (_, i) => Date.parse('2026-11-20T00:30:00Z') / 1000 + i * 397 + 0.25);
  const clusters = [undefined, ...simulatedClusters(envId).map((c) => c.id)];
  for (const metric of BUILTIN_METRIC_IDS) {
    for (const clusterId of clusters) {
      for (const windowMinutes of [1, 5, 60]) {
        const series = simulatedMetricSeries({ envId, clusterId, metric, windowMinutes }, instants);
        const live: number[] = [];
        for (const at of instants) {
          clock = new Date(at * 1000);
          live.push(await gateway.readMetric({ envId, clusterId, metric, windowMinutes }));
        }
        t.deepEqual(series, live, `${metric} ${clusterId ?? 'all clusters'} ${windowMinutes} min`);
      }
    }
  }
});

test('an unknown metric or cluster is refused as the gateway refuses it', (t) => {
  t.throws(() => simulatedMetricSeries({ envId, metric: 'nope', windowMinutes: 5 }, [1_800_000_000]), {
    name: 'UnknownMetricError',
  });
  t.throws(
    () =>
      simulatedMetricSeries(
        { envId, clusterId: 'rs-none', metric: 'disk_spill_gb', windowMinutes: 5 },
        [1_800_000_000],
      ),
    { name: 'UnknownClusterError' },
  );
});
