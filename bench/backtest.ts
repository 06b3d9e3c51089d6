/**
 * A rule backtest over 31 days at one-minute resolution for one cluster (44,641 instants,
 * since..until inclusive): history read, the evaluator's decisions replayed, pages counted
 * (src/backtest/run-backtest.ts), as POST /alert-rules/backtest runs it, from
 * - the relational store: cluster_metrics seeded with one sample a minute for the 31 days (the
 *   seven metrics, 312,480 rows, as the sync job writes them), embedded PostgreSQL (PGlite), and a
 *   PostgreSQL server too when one answers (SYNC_DATABASE_URL, TEST_POSTGRES_URL or local 5432);
 * - the simulated warehouse's deterministic history.
 * BENCH_BACKTEST_RUNS runs each (default 9), median and p99; writes bench/results/backtest.json.
 * Target (issue 30): under 2 s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { BUILTIN_METRIC_IDS } from '../src/gateways/warehouse/metric-catalogue.js';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { simulatedMetricSeries } from '../src/gateways/warehouse/simulated/metric-history.js';
import { simulatedHistorySource } from '../src/gateways/warehouse/simulated/simulated-history.js';
import type { MetricHistorySource } from '../src/gateways/warehouse/metric-history-port.js';
import { replayInstants } from '../src/backtest/replay.js';
import { runBacktest, type BacktestRequest } from '../src/backtest/run-backtest.js';
import { syncStoreHistorySource } from '../src/syncstore/metric-history.js';
import { openPgConnection } from '../src/syncstore/pg-connection.js';
import { openPgliteConnection } from '../src/syncstore/pglite-connection.js';
import type { SqlConnection } from '../src/syncstore/sql-connection.js';
import { createSyncStore } from '../src/syncstore/store.js';
import { machine, percentile } from './support/machine.js';

const RUNS = Math.max(3, Number(process.env.BENCH_BACKTEST_RUNS ?? 9));
const MIN = 60_000;
const UNTIL = Date.parse('2026-11-20T00:00:00Z');
const SINCE = UNTIL - 31 * 24 * 60 * MIN;
const SCHEMA = `bench_backtest_${randomBytes(4).toString('hex')}`;

async function serverUrl(): Promise<string | undefined> {
  const url =
    process.env.SYNC_DATABASE_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function measure(source: MetricHistorySource, request: BacktestRequest) {
  const seconds: number[] = [];
  let answer: Awaited<ReturnType<typeof runBacktest>> | undefined;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    answer = await runBacktest(source, request);
    seconds.push((performance.now() - started) / 1000);
  }
  const sorted = [...seconds].sort((a, b) => a - b);
  const round = (s: number) => Math.round(s * 1000) / 1000;
  return {
    source: source.name,
    runs: RUNS,
    median_seconds: round(percentile(sorted, 50)),
    p99_seconds: round(percentile(sorted, 99)),
    all_seconds: seconds.map(round),
    evaluations: answer!.evaluations,
    breaches: answer!.breaches,
    incidents: answer!.incidents.length,
    pages: answer!.pages,
    missing_evaluations: answer!.missing_evaluations,
  };
}

async function main() {
  // A fixed environment: the same workload, the same answer, on every run.
  const envId = '3f1c9a52-7d4e-4b8a-9e21-6c0d5b7a8f13';
  const clusterId = simulatedClusters(envId)[0]!.id;
  const instants = replayInstants(SINCE, UNTIL, MIN);
  const rule = {
    id: null,
    envId,
    clusterId,
    metric: 'queue_time_seconds',
    condition: 'gt' as const,
    threshold: 300,
    windowMinutes: 5,
    severity: 'high',
  };
  // A nightly two-hour window over every rule, so the replay also decides with windows active.
  const windows = [
    {
      id: randomUUID(),
      name: 'nightly vacuum',
      createdAt: new Date(SINCE).toISOString(),
      endedAt: null,
      matcher: { allRules: true, ruleIds: [], clusterIds: [], severities: [] },
      timing: {
        kind: 'weekly' as const,
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as (
          | 'mon'
          | 'tue'
          | 'wed'
          | 'thu'
          | 'fri'
          | 'sat'
          | 'sun'
        )[],
        startTime: '02:00',
        durationMinutes: 120,
        timeZone: 'Europe/Berlin',
      },
    },
  ];
  const policy = {
    stages: [
      {
        stageOrder: 1,
        delayMinutes: 0,
        targets: [{ type: 'schedule' as const, id: randomUUID(), channels: ['sms' as const] }],
      },
      {
        stageOrder: 2,
        delayMinutes: 15,
        targets: [{ type: 'user' as const, id: randomUUID(), channels: ['email' as const] }],
      },
    ],
    repeatIntervalMinutes: 30,
  };
  const request: BacktestRequest = { rule, policy, windows, since: SINCE, until: UNTIL, stepMs: MIN, now: UNTIL };
  const results = [];

  results.push({ store: 'simulator', ...(await measure(simulatedHistorySource(), request)) });

  // What the sync job would have mirrored: each metric's 5-minute reading, one sample a minute.
  const seedStarted = performance.now();
  const samples = BUILTIN_METRIC_IDS.map((metric) => ({
    metric,
    values: simulatedMetricSeries(
      { envId, clusterId, metric, windowMinutes: 5 },
      instants.map((at) => at / 1000),
    ),
  }));
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const rows = function* () {
    for (const { metric, values } of samples) {
      for (let i = 0; i < instants.length; i++)
        yield {
          env_id: envId,
          cluster_id: clusterId,
          metric,
          sampled_at: new Date(instants[i]!),
          value: values[i]!,
          synced_at: new Date(instants[i]!),
        };
    }
  };
  const url = await serverUrl();
  const stores: [string, () => Promise<SqlConnection>][] = [
    ['embedded (PGlite)', () => openPgliteConnection({ schema: SCHEMA })],
  ];
  if (url) stores.push(['postgresql server', () => openPgConnection({ url, schema: SCHEMA })]);
  const seeding: Record<string, number> = { simulate_seconds: Math.round(seedSeconds * 100) / 100 };
  for (const [name, open] of stores) {
    const connection = await open();
    const store = createSyncStore(connection);
    try {
      await store.migrate();
      const started = performance.now();
      const written = await store.upsert('cluster_metrics', rows());
      seeding[`${name} rows`] = written;
      seeding[`${name} seconds`] = Math.round(((performance.now() - started) / 1000) * 100) / 100;
      await store.query('ANALYZE cluster_metrics');
      results.push({
        store: name,
        ...(await measure(syncStoreHistorySource({ store, lookbackMs: 5 * MIN }), request)),
      });
    } finally {
      if (connection.kind === 'postgresql') await store.query(`DROP SCHEMA ${SCHEMA} CASCADE`).catch(() => undefined);
      await store.close();
    }
  }

  const report = {
    benchmark: 'rule backtest: 31 days at one-minute resolution, one cluster',
    instants: instants.length,
    rule: {
      metric: rule.metric,
      condition: rule.condition,
      threshold: rule.threshold,
      evaluation_window_minutes: rule.windowMinutes,
    },
    target_seconds: 2,
    results,
    seeding,
    machine: machine(),
    load_average_1m_after: Math.round(loadavg()[0]! * 100) / 100,
    measured_at: new Date().toISOString(),
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/backtest.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

await main();
