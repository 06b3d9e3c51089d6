/**
 * One evaluation tick over 10,000 enabled rules spread over 50 simulated clusters, the seven
 * metrics and three windows: tick duration and warehouse reads per tick (target: under 2 s,
 * reads = distinct (cluster, metric, window) combinations). Writes bench/results/evaluator.json.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { alertRulesProjection } from '../projections/alert-rules.js';
import { incidentsProjection } from '../projections/incidents.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { createEvaluator, createEvaluatorInstruments } from '../src/process/evaluator.js';
import { createProjectionRunner } from '../src/projection/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { machine } from './support/machine.js';

const RULES = 10_000;
const CLUSTERS = 50;
const METRICS = ['query_runtime_seconds', 'disk_spill_gb', 'queue_time_seconds', 'storage_utilization_pct', 'unsorted_pct', 'active_query_count', 'cpu_utilization_pct'];
const WINDOWS = [5, 15, 60];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-evaluator-'));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'events.db') });
  const readStore = openSqliteReadStore(join(dir, 'read.db'));
  const logger = pino({ level: 'silent' });
  const runner = createProjectionRunner({ eventStore, readStore, projections: [alertRulesProjection, incidentsProjection], logger });
  await runner.start();
  let clock = new Date('2026-11-20T12:00:00Z');
  const now = () => clock;
  const simulated = createSimulatedWarehouse({ now });
  const metrics = createMetricRegistry({ gateway: simulated.gateway, overrides: simulated.control });

  // 50 clusters: the first cluster of each of 50 simulated environments.
  const targets = Array.from({ length: CLUSTERS }, () => {
    const envId = randomUUID();
    return { envId, clusterId: simulatedClusters(envId)[0]!.id };
  });
  const tenantId = randomUUID();
  const combinations = new Set<string>();
  let last = 0n;
  for (let i = 0; i < RULES; i += 500) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(500, RULES - i) }, (_, j) => {
        const n = i + j;
        const target = targets[n % CLUSTERS]!;
        const metric = METRICS[Math.floor(n / CLUSTERS) % METRICS.length]!;
        const window = WINDOWS[Math.floor(n / (CLUSTERS * METRICS.length)) % WINDOWS.length]!;
        combinations.add(`${target.clusterId}/${metric}/${window}`);
        const ruleId = randomUUID();
        return eventStore.append(`alertRule-${ruleId}`, [{
          type: 'AlertRuleCreated',
          data: {
            ruleId, name: `rule ${n}`, description: null, metric, condition: 'gt', threshold: 1e12, evaluationWindowMinutes: window,
            severity: 'low', escalationPolicyId: randomUUID(), clusterId: target.clusterId, isEnabled: true, envId: target.envId,
          },
          metadata: { tenantId, actor: 'bench', correlationId: 'bench', causationId: 'bench', occurredAt: clock.toISOString() },
        }]);
      }),
    );
    last = batch.at(-1)!.position;
  }
  await runner.waitFor(last, 60_000);

  const evaluator = createEvaluator({
    eventStore, now, reader: readStore, metrics, logger, instruments: createEvaluatorInstruments(new Registry()),
    waitForProjections: (position) => runner.waitFor(position, 10_000),
  });
  const ticks = [];
  for (let i = 0; i < 5; i++) {
    clock = new Date(clock.getTime() + 60_000);
    const report = await evaluator.tick();
    ticks.push({ duration_ms: Math.round(report.durationMs), rules: report.rules, warehouse_reads: report.metricReads, triggered: report.triggered, errors: report.errors });
  }
  await runner.stop();
  await eventStore.close();
  await readStore.close();

  const durations = ticks.map((t) => t.duration_ms).sort((a, b) => a - b);
  const results = {
    benchmark: 'evaluator',
    date: new Date().toISOString(),
    machine: machine(),
    settings: { rules: RULES, clusters: CLUSTERS, metrics: METRICS.length, windows: WINDOWS, distinct_combinations: combinations.size, stores: 'embedded SQLite' },
    ticks,
    median_tick_ms: durations[Math.floor(durations.length / 2)],
    max_tick_ms: durations.at(-1),
    reads_equal_distinct_combinations: ticks.every((t) => t.warehouse_reads === combinations.size),
    targets: { tick_ms_max: 2000 },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/evaluator.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
