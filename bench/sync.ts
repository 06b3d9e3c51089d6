/**
 * Sync write throughput: 1,000,000 simulated query-history rows upserted into the relational store
 * in batches (the path a sync run takes), on the local PostgreSQL server when one answers
 * (SYNC_DATABASE_URL, TEST_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres), else on
 * the embedded PostgreSQL. Rows are a day of the simulator's finished queries, repeated with fresh
 * ids, generated as they are written so memory stays flat. Bounded: stops at the row count or
 * after BENCH_SYNC_MAX_SECONDS (default 300). Writes bench/results/sync.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { openPgConnection } from '../src/syncstore/pg-connection.js';
import { openPgliteConnection } from '../src/syncstore/pglite-connection.js';
import type { SqlConnection } from '../src/syncstore/sql-connection.js';
import { createSyncStore } from '../src/syncstore/store.js';
import { DEFAULT_BATCH_SIZE, type SyncRow } from '../src/syncstore/upsert.js';
import { machine } from './support/machine.js';

const ROWS = Number(process.env.BENCH_SYNC_ROWS ?? 1_000_000);
const MAX_SECONDS = Number(process.env.BENCH_SYNC_MAX_SECONDS ?? 300);
const SCHEMA = `bench_sync_${randomBytes(4).toString('hex')}`;

async function serverUrl(): Promise<string | undefined> {
  const url =
    process.env.SYNC_DATABASE_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function* rows(template: SyncRow[], count: number, deadline: number) {
  for (let i = 0; i < count; i++) {
    if (i % DEFAULT_BATCH_SIZE === 0 && Date.now() > deadline) return;
    const base = template[i % template.length]!;
    yield { ...base, query_id: 10_000_000_000 + i };
  }
}

async function main() {
  const now = new Date('2026-03-02T12:00:00Z');
  const { gateway } = createSimulatedWarehouse({ now: () => now });
  const day = await gateway.finishedQueries('bench-env', { from: new Date(now.getTime() - 86_400_000), to: now });
  const template: SyncRow[] = day.map((q) => ({
    env_id: 'bench-env',
    cluster_id: q.cluster_id,
    query_id: q.query_id,
    user_name: q.user_name,
    database_name: q.database,
    queue: q.queue,
    start_time: q.start_time,
    end_time: q.end_time,
    elapsed_ms: q.elapsed_ms,
    rows_returned: q.rows,
    spilled_bytes: q.spilled_bytes,
    query_text: q.query_text,
    synced_at: now,
  }));
  const url = await serverUrl();
  const connection: SqlConnection = url
    ? await openPgConnection({ url, schema: SCHEMA })
    : await openPgliteConnection({ schema: SCHEMA });
  const store = createSyncStore(connection);
  await store.migrate();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const written = await store.upsert('query_history', rows(template, ROWS, Date.now() + MAX_SECONDS * 1000));
  const seconds = (performance.now() - started) / 1000;
  const stored = await store.count('query_history');
  if (url) await connection.query(`DROP SCHEMA ${SCHEMA} CASCADE`);
  await store.close();
  const result = {
    benchmark: 'sync: query_history upsert',
    target: url ? 'postgresql server (local)' : 'embedded PostgreSQL (PGlite)',
    rows_requested: ROWS,
    rows_written: written,
    rows_stored: stored,
    batch_size: DEFAULT_BATCH_SIZE,
    parallel_writes: connection.parallelSessions,
    seconds: Number(seconds.toFixed(2)),
    rows_per_second: Math.round(written / seconds),
    rss_before_mib: Math.round(rssBefore / 2 ** 20),
    peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    stopped_by_time_limit: written < ROWS,
    machine: machine(),
    // Other work on this shared machine during the run: the figure is a floor when this is high.
    load_average_1m_after: Number(loadavg()[0]!.toFixed(2)),
    measured_at: new Date().toISOString(),
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/sync.json', `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
