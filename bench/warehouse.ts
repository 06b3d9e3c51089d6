/**
 * Warehouse benchmark on the simulated warehouse: p50/p99 of each gateway question, and a batch
 * read of 1,000 distinct (env, cluster, metric, window) combinations through the metric registry
 * (what the evaluator does every interval). Writes bench/results/warehouse.json.
 *
 *   npx tsx bench/warehouse.ts [--iterations 2000]
 *
 * The simulator's clock moves one second per iteration, so every call computes a new instant.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { cpus, platform, release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { startPlatform } from '../src/platform.js';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import type { MetricRequest, WarehouseGateway } from '../src/gateways/warehouse/port.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';

const iterationsFlag = process.argv.indexOf('--iterations');
const ITERATIONS = iterationsFlag > 0 ? Number(process.argv[iterationsFlag + 1]) : 2000;
const BATCH_RUNS = 30;
const BATCH_SIZE = 1000;
const ENVS = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

let nowMs = Date.parse('2025-03-12T00:00:00Z');
const simulated = createSimulatedWarehouse({ now: () => new Date(nowMs) });
const gateway = simulated.gateway;

interface Figures {
  iterations: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
}

function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    iterations: samples.length,
    p50_ms: round(at(0.5)),
    p99_ms: round(at(0.99)),
    mean_ms: round(samples.reduce((sum, ms) => sum + ms, 0) / samples.length),
    max_ms: round(sorted[sorted.length - 1]!),
  };
}

async function time(iterations: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(50, iterations); i++) await work(i); // warm-up, not measured
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    nowMs += 1000;
    const started = performance.now();
    await work(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

const QUESTIONS: [string, (g: WarehouseGateway, envId: string) => Promise<unknown>][] = [
  ['cluster', (g, env) => g.cluster(env)],
  ['slow_queries', (g, env) => g.slowQueries(env)],
  ['spill_queries', (g, env) => g.spillQueries(env)],
  ['vacuum_candidates', (g, env) => g.vacuumCandidates(env)],
  ['table_alerts', (g, env) => g.tableAlerts(env)],
  ['storage', (g, env) => g.storage(env)],
  ['read_metric_15m', (g, env) => g.readMetric({ envId: env, metric: 'query_runtime_seconds', windowMinutes: 15 })],
];

function distinctCombinations(count: number): MetricRequest[] {
  const combos: MetricRequest[] = [];
  for (const windowMinutes of [5, 15, 60, 240]) {
    for (const envId of ENVS) {
      const scopes = [undefined, ...simulated.control.status(envId).clusters];
      for (const clusterId of scopes) {
        for (const metric of BUILTIN_METRIC_IDS) {
          if (combos.length === count) return combos;
          combos.push({ envId, clusterId, metric, windowMinutes });
        }
      }
    }
  }
  if (combos.length < count) throw new Error(`only ${combos.length} distinct combinations available`);
  return combos;
}

/** Each endpoint through the real app (token check, permissions, envelope), one request at a time. */
async function httpEndpointFigures(): Promise<Record<string, Figures>> {
  const platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'http://127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-wh-')),
      LOG_LEVEL: 'warn',
      ALERT_EVALUATION_INTERVAL_SECONDS: '3600',
    }),
  );
  try {
    const client = platform.devClient!;
    const tokenResponse = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        audience: 'http://127.0.0.1',
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const out: Record<string, Figures> = {};
    for (const path of [
      '/warehouse/cluster',
      '/warehouse/queries/slow',
      '/warehouse/queries/spill',
      '/warehouse/tables/vacuum',
      '/warehouse/tables/alerts',
      '/warehouse/storage',
    ]) {
      out[path] = figures(
        await time(HTTP_ITERATIONS, async () => {
          const response = await fetch(`${platform.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
          if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
          await response.arrayBuffer();
        }),
      );
      console.log(`GET ${path.padEnd(26)} p50 ${out[path]!.p50_ms} ms  p99 ${out[path]!.p99_ms} ms`);
    }
    return out;
  } finally {
    await platform.stop();
  }
}

const HTTP_ITERATIONS = 500;

async function main() {
  const gatewayFigures: Record<string, Figures> = {};
  for (const [name, ask] of QUESTIONS) {
    gatewayFigures[name] = figures(await time(ITERATIONS, (i) => ask(gateway, ENVS[i % ENVS.length]!)));
    console.log(`${name.padEnd(18)} p50 ${gatewayFigures[name]!.p50_ms} ms  p99 ${gatewayFigures[name]!.p99_ms} ms`);
  }

  const registry = createMetricRegistry({ gateway, overrides: simulated.control });
  const combos = distinctCombinations(BATCH_SIZE);
  let failures = 0;
  const readsBefore = registry.providerReads;
  const batchSamples = await time(BATCH_RUNS, async () => {
    nowMs += 59_000; // one evaluation interval apart (time() adds the 60th second)
    failures += (await registry.readMany(combos)).filter((result) => !result.ok).length;
  });
  const readsPerBatch = (registry.providerReads - readsBefore) / (BATCH_RUNS + Math.min(50, BATCH_RUNS));
  const batch = {
    combinations: combos.length,
    gateway_reads_per_batch: readsPerBatch,
    failures,
    ...figures(batchSamples),
  };
  console.log(
    `batch of ${combos.length}     p50 ${batch.p50_ms} ms  p99 ${batch.p99_ms} ms  (${readsPerBatch} gateway reads per batch)`,
  );

  const http = await httpEndpointFigures();

  const cpu = cpus()[0];
  const result = {
    benchmark: 'warehouse',
    adapter: 'simulated',
    date: new Date().toISOString(),
    machine: {
      cpu: cpu?.model ?? 'unknown',
      cores: cpus().length,
      node: process.version,
      platform: `${platform()} ${release()}`,
    },
    gateway: gatewayFigures,
    http_endpoints: http,
    metric_batch: batch,
  };
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'warehouse.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

await main();
