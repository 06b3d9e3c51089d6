import type { SimulatedCluster } from './fleet.js';
import { randomFrom, seedOf, type Random } from './prng.js';
import type { SimulatedTable } from './table-catalogue.js';

/**
 * The query workload of a simulated cluster. Time is cut into one-minute slots; the queries that
 * arrive in a slot are drawn from a generator seeded by (cluster, slot), so any instant's
 * workload can be rebuilt without state: a query submitted at s, queued until e and executing
 * until f is "running" for any t in [e, f), and its runtime so far is t - e.
 *
 * The mix follows the clock: dashboards and ad-hoc analysis in business hours, a nightly ETL
 * window (01:00-05:00 UTC) with long, spilling loads and queue waits, a quieter weekend.
 */

export const SLOT_SECONDS = 60;
/** Longest a query can live (queue + execution); bounds how far back a listing must look. */
export const MAX_QUERY_LIFETIME_SECONDS = 900 + 4500;
const MAX_ARRIVALS_PER_SLOT = 8;

type QueryKind = 'dashboard' | 'adhoc' | 'etl' | 'report';

export interface SimulatedQuery {
  clusterId: string;
  queryId: number;
  kind: QueryKind;
  userName: string;
  database: string;
  queue: string;
  submittedAt: number;
  execStartAt: number;
  endAt: number;
  spillMb: number;
  /** Share of the cluster's CPU the query keeps busy while it executes, in percent. */
  cpuPct: number;
  text: string;
}

interface KindProfile {
  users: readonly string[];
  queue: string;
  execSeconds(random: Random): number;
  queueSeconds(random: Random, etlWindow: boolean): number;
  spillMb(random: Random): number;
  cpuPct(random: Random): number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const longRunner = (random: Random, probability: number, min: number, max: number, otherwise: () => number) =>
  random.chance(probability) ? random.between(min, max) : otherwise();

const PROFILES: Record<QueryKind, KindProfile> = {
  dashboard: {
    users: ['looker_svc', 'tableau_svc'],
    queue: 'dashboards',
    execSeconds: (r) => clamp(r.logNormal(4, 0.9), 0.3, 600),
    queueSeconds: (r) => clamp(r.logNormal(0.5, 1), 0, 60),
    spillMb: (r) => (r.chance(0.02) ? r.logNormal(80, 0.8) : 0),
    cpuPct: (r) => r.between(3, 12),
  },
  adhoc: {
    users: ['maria_analyst', 'kenji_analyst', 'priya_ds', 'tom_bi'],
    queue: 'adhoc',
    execSeconds: (r) => longRunner(r, 0.07, 360, 3000, () => clamp(r.logNormal(40, 1.1), 1, 1800)),
    queueSeconds: (r) => clamp(r.logNormal(3, 1.2), 0, 600),
    spillMb: (r) => (r.chance(0.12) ? r.logNormal(900, 1) : 0),
    cpuPct: (r) => r.between(8, 35),
  },
  etl: {
    users: ['etl_airflow', 'dbt_runner'],
    queue: 'etl',
    execSeconds: (r) => longRunner(r, 0.3, 420, 4500, () => clamp(r.logNormal(180, 0.8), 5, 4500)),
    queueSeconds: (r, etlWindow) => clamp(r.logNormal(20, 1.2) * (etlWindow ? 3 : 1), 0, 900),
    spillMb: (r) => (r.chance(0.45) ? Math.min(120_000, r.logNormal(6000, 1.1)) : 0),
    cpuPct: (r) => r.between(20, 60),
  },
  report: {
    users: ['report_scheduler', 'finance_reports'],
    queue: 'default',
    execSeconds: (r) => longRunner(r, 0.08, 360, 1800, () => clamp(r.logNormal(90, 0.9), 2, 1800)),
    queueSeconds: (r) => clamp(r.logNormal(5, 1), 0, 600),
    spillMb: (r) => (r.chance(0.15) ? r.logNormal(1500, 1) : 0),
    cpuPct: (r) => r.between(10, 40),
  },
};

interface SlotMix {
  perMinute: number;
  kinds: [QueryKind, number][];
  etlWindow: boolean;
}

function mixAt(cluster: SimulatedCluster, slotStart: number): SlotMix {
  const date = new Date(slotStart * 1000);
  const hour = date.getUTCHours();
  const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
  const etlWindow = hour >= 1 && hour < 5;
  const business = hour >= 8 && hour < 18 && !weekend;
  let perMinute = etlWindow ? 1.6 : business ? 3 : 1.2;
  let weights: Record<QueryKind, number> = etlWindow
    ? { etl: 0.55, report: 0.2, adhoc: 0.1, dashboard: 0.15 }
    : business
      ? { dashboard: 0.5, adhoc: 0.3, report: 0.12, etl: 0.08 }
      : { dashboard: 0.35, adhoc: 0.2, report: 0.2, etl: 0.25 };
  if (cluster.role === 'etl') weights = { ...weights, etl: weights.etl * 4, dashboard: weights.dashboard * 0.2 };
  if (weekend) perMinute *= 0.5;
  return {
    perMinute: Math.min(MAX_ARRIVALS_PER_SLOT - 1, perMinute * cluster.intensity),
    kinds: Object.entries(weights) as [QueryKind, number][],
    etlWindow,
  };
}

const qualified = (table: SimulatedTable) => `${table.schema}.${table.name}`;

function queryText(kind: QueryKind, random: Random, tables: readonly SimulatedTable[]): string {
  const facts = tables.filter((t) => t.kind === 'fact' || t.kind === 'stage');
  const dims = tables.filter((t) => t.kind === 'dim' || t.kind === 'agg');
  const fact = random.pick(facts.length > 0 ? facts : tables);
  const dim = random.pick(dims.length > 0 ? dims : tables);
  const time = fact.timeColumn ?? 'updated_at';
  switch (kind) {
    case 'dashboard':
      return `SELECT ${fact.key}, COUNT(*) AS events FROM ${qualified(fact)} WHERE ${time} >= DATEADD(day, -7, GETDATE()) GROUP BY 1 ORDER BY 2 DESC LIMIT 50`;
    case 'adhoc':
      return `SELECT f.*, d.* FROM ${qualified(fact)} f JOIN ${qualified(dim)} d ON f.${dim.key} = d.${dim.key} WHERE f.${time} >= '2024-01-01'`;
    case 'etl':
      return `INSERT INTO ${qualified(fact)} SELECT s.* FROM staging.stg_${fact.name.replace(/^(fact|stg)_/, '')} s LEFT JOIN ${qualified(fact)} t ON t.${fact.key} = s.${fact.key} WHERE t.${fact.key} IS NULL`;
    case 'report':
      return `SELECT DATE_TRUNC('month', f.${time}) AS month, d.${dim.key}, SUM(f.amount) AS total FROM ${qualified(fact)} f JOIN ${qualified(dim)} d USING (${dim.key}) GROUP BY 1, 2 ORDER BY 1`;
  }
}

/** The queries submitted in one slot of one cluster, in submission order. */
export function queriesInSlot(cluster: SimulatedCluster, tables: readonly SimulatedTable[], slot: number): SimulatedQuery[] {
  const random = randomFrom(seedOf(cluster.id, 'slot', slot));
  const slotStart = slot * SLOT_SECONDS;
  const mix = mixAt(cluster, slotStart);
  const queries: SimulatedQuery[] = [];
  for (let i = 0; i < MAX_ARRIVALS_PER_SLOT; i++) {
    if (!random.chance(mix.perMinute / MAX_ARRIVALS_PER_SLOT)) continue;
    const kind = random.weighted(mix.kinds);
    const profile = PROFILES[kind];
    const submittedAt = slotStart + random.next() * SLOT_SECONDS;
    const execStartAt = submittedAt + profile.queueSeconds(random, mix.etlWindow);
    queries.push({
      clusterId: cluster.id,
      queryId: cluster.queryIdBase + slot * MAX_ARRIVALS_PER_SLOT + i,
      kind,
      userName: random.pick(profile.users),
      database: cluster.database,
      queue: profile.queue,
      submittedAt,
      execStartAt,
      endAt: execStartAt + profile.execSeconds(random),
      spillMb: Math.round(profile.spillMb(random)),
      cpuPct: profile.cpuPct(random),
      text: queryText(kind, random, tables),
    });
  }
  return queries;
}

/** Every query whose life (queued or executing) overlaps [fromSeconds, toSeconds] and began by toSeconds. */
export function queriesOverlapping(
  cluster: SimulatedCluster,
  tables: readonly SimulatedTable[],
  fromSeconds: number,
  toSeconds: number,
): SimulatedQuery[] {
  const firstSlot = Math.floor((fromSeconds - MAX_QUERY_LIFETIME_SECONDS) / SLOT_SECONDS);
  const lastSlot = Math.floor(toSeconds / SLOT_SECONDS);
  const found: SimulatedQuery[] = [];
  for (let slot = firstSlot; slot <= lastSlot; slot++) {
    for (const query of queriesInSlot(cluster, tables, slot)) {
      if (query.submittedAt <= toSeconds && query.endAt > fromSeconds) found.push(query);
    }
  }
  return found;
}

export const isExecutingAt = (query: SimulatedQuery, atSeconds: number) =>
  query.execStartAt <= atSeconds && atSeconds < query.endAt;
export const isQueuedAt = (query: SimulatedQuery, atSeconds: number) =>
  query.submittedAt <= atSeconds && atSeconds < query.execStartAt;
