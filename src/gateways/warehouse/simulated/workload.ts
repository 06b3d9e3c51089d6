import { capacityGb, type SimulatedCluster } from './fleet.js';
import { extendSeed, randomFrom, seedOf, type Random } from './prng.js';
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
const SPILL_CEILING_SHARE = 0.05;

/** Ids are laid out per slot, so any component can name a plausible query of a given minute. */
export const queryIdOf = (cluster: SimulatedCluster, slot: number, index: number) =>
  cluster.queryIdBase + slot * MAX_ARRIVALS_PER_SLOT + (index % MAX_ARRIVALS_PER_SLOT);

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
  /** The text is built on demand (queryTextOf): most listings never show most of the queries they scan. */
  tables: readonly SimulatedTable[];
  textSeed: number;
}

interface KindProfile {
  users: readonly string[];
  queue: string;
  execSeconds(random: Random): number;
  queueSeconds(random: Random, etlWindow: boolean): number;
  /**
   * Disk spill of the whole query in MB; 0 for queries that fit in memory. Heavy-tailed (see
   * spillOf): most spilling queries write tens to hundreds of MB, a few write tens of GB.
   */
  spillMb(random: Random, execSeconds: number): number;
  cpuPct(random: Random): number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const longRunner = (random: Random, probability: number, min: number, max: number, otherwise: () => number) =>
  random.chance(probability) ? random.between(min, max) : otherwise();

/**
 * Spill is heavy-tailed, as on a real cluster: most spilling queries write a little, a few write
 * a lot. Whether a query spills is a coin with the kind's probability; the amount is Pareto
 * (tail index SPILL_TAIL_INDEX < 1: one spilling query in ten writes ~13x the minimum, one in a
 * hundred ~170x, one in a thousand ~2,000x), scaled by the square root of the runtime (a long
 * query spills more, though not in proportion) and blurred by a second draw. `minMbPerMinute` is
 * the least a one-minute query writes once it spills. A log-normal with the spread of real
 * workloads would make a day's top list a plateau; the Pareto tail makes it a slope. (Two draws
 * after the coin, as the model before this one used, so the other queries of a slot keep theirs.)
 */
const SPILL_TAIL_INDEX = 0.9;
function spillOf(random: Random, execSeconds: number, probability: number, minMbPerMinute: number): number {
  if (!random.chance(probability)) return 0;
  const tail = (1 - random.next()) ** (-1 / SPILL_TAIL_INDEX);
  const blur = random.between(0.8, 1.25);
  return minMbPerMinute * tail * blur * Math.sqrt(execSeconds / 60);
}

const PROFILES: Record<QueryKind, KindProfile> = {
  dashboard: {
    users: ['looker_svc', 'tableau_svc'],
    queue: 'dashboards',
    execSeconds: (r) => clamp(r.logNormal(4, 0.9), 0.3, 600),
    queueSeconds: (r) => clamp(r.logNormal(0.5, 1), 0, 60),
    spillMb: (r, exec) => spillOf(r, exec, 0.02, 2),
    cpuPct: (r) => r.between(1, 4),
  },
  adhoc: {
    users: ['maria_analyst', 'kenji_analyst', 'priya_ds', 'tom_bi'],
    queue: 'adhoc',
    execSeconds: (r) => longRunner(r, 0.07, 360, 3000, () => clamp(r.logNormal(40, 1.1), 1, 1800)),
    queueSeconds: (r) => clamp(r.logNormal(3, 1.2), 0, 600),
    spillMb: (r, exec) => spillOf(r, exec, 0.12, 4),
    cpuPct: (r) => r.between(3, 12),
  },
  etl: {
    users: ['etl_airflow', 'dbt_runner'],
    queue: 'etl',
    execSeconds: (r) => longRunner(r, 0.3, 420, 4500, () => clamp(r.logNormal(180, 0.8), 5, 4500)),
    queueSeconds: (r, etlWindow) => clamp(r.logNormal(20, 1.2) * (etlWindow ? 3 : 1), 0, 900),
    spillMb: (r, exec) => spillOf(r, exec, 0.45, 6),
    cpuPct: (r) => r.between(8, 25),
  },
  report: {
    users: ['report_scheduler', 'finance_reports'],
    queue: 'default',
    execSeconds: (r) => longRunner(r, 0.08, 360, 1800, () => clamp(r.logNormal(90, 0.9), 2, 1800)),
    queueSeconds: (r) => clamp(r.logNormal(5, 1), 0, 600),
    spillMb: (r, exec) => spillOf(r, exec, 0.15, 4),
    cpuPct: (r) => r.between(4, 14),
  },
};

interface SlotMix {
  perMinute: number;
  kinds: readonly (readonly [QueryKind, number])[];
  etlWindow: boolean;
}

type Period = 'etl_window' | 'business' | 'off_hours';

const PERIOD_MIX: Record<Period, { perMinute: number; weights: Record<QueryKind, number> }> = {
  etl_window: { perMinute: 1.6, weights: { etl: 0.55, report: 0.2, adhoc: 0.1, dashboard: 0.15 } },
  business: { perMinute: 3, weights: { dashboard: 0.5, adhoc: 0.3, report: 0.12, etl: 0.08 } },
  off_hours: { perMinute: 1.2, weights: { dashboard: 0.35, adhoc: 0.2, report: 0.2, etl: 0.25 } },
};

function kindWeights(role: SimulatedCluster['role'], period: Period): (readonly [QueryKind, number])[] {
  const weights = PERIOD_MIX[period].weights;
  // An ETL cluster mostly loads; dashboards go to the main cluster.
  const boost: Record<QueryKind, number> =
    role === 'etl' ? { etl: 4, dashboard: 0.2, adhoc: 1, report: 1 } : { etl: 1, dashboard: 1, adhoc: 1, report: 1 };
  return (Object.keys(weights) as QueryKind[]).map((kind) => [kind, weights[kind] * boost[kind]] as const);
}

const KIND_WEIGHTS = {
  main: {
    etl_window: kindWeights('main', 'etl_window'),
    business: kindWeights('main', 'business'),
    off_hours: kindWeights('main', 'off_hours'),
  },
  etl: {
    etl_window: kindWeights('etl', 'etl_window'),
    business: kindWeights('etl', 'business'),
    off_hours: kindWeights('etl', 'off_hours'),
  },
} as const;

const DAY_SECONDS = 86_400;
/** 1970-01-01 was a Thursday (day 4 counting from Sunday = 0). */
const EPOCH_WEEKDAY = 4;

function mixAt(cluster: SimulatedCluster, slotStart: number): SlotMix {
  const day = Math.floor(slotStart / DAY_SECONDS);
  const hour = Math.floor((slotStart - day * DAY_SECONDS) / 3600);
  const weekday = (day + EPOCH_WEEKDAY) % 7;
  const weekend = weekday === 0 || weekday === 6;
  const period: Period =
    hour >= 1 && hour < 5 ? 'etl_window' : hour >= 8 && hour < 18 && !weekend ? 'business' : 'off_hours';
  const perMinute = PERIOD_MIX[period].perMinute * (weekend ? 0.5 : 1) * cluster.intensity;
  return {
    perMinute: Math.min(MAX_ARRIVALS_PER_SLOT - 1, perMinute),
    kinds: KIND_WEIGHTS[cluster.role][period],
    etlWindow: period === 'etl_window',
  };
}

const qualified = (table: SimulatedTable) => `${table.schema}.${table.name}`;

/** The SQL a query ran; derived from the query's own seed, so it is the same on every read. */
export function queryTextOf(query: SimulatedQuery): string {
  const { tables } = query;
  const random = randomFrom(query.textSeed);
  const ofKind = (...kinds: SimulatedTable['kind'][]) => {
    const matching = tables.filter((t) => kinds.includes(t.kind));
    return random.pick(matching.length > 0 ? matching : tables);
  };
  const fact = ofKind('fact', 'stage');
  const dim = ofKind('dim', 'agg');
  const time = fact.timeColumn ?? 'updated_at';
  switch (query.kind) {
    case 'dashboard':
      return `SELECT ${fact.key}, COUNT(*) AS events FROM ${qualified(fact)} WHERE ${time} >= DATEADD(day, -7, GETDATE()) GROUP BY 1 ORDER BY 2 DESC LIMIT 50`;
    case 'adhoc':
      return `SELECT f.*, d.* FROM ${qualified(fact)} f JOIN ${qualified(dim)} d ON f.${dim.key} = d.${dim.key} WHERE f.${time} >= '2024-01-01'`;
    case 'etl': {
      // Loads move rows from a staging table into a fact or aggregate with the same key.
      const target = ofKind('fact', 'agg');
      const source = tables.find((t) => t.kind === 'stage' && t.key === target.key);
      const from = source ? qualified(source) : `staging.stg_${target.name.replace(/^(fact|agg|mart)_/, '')}`;
      return `INSERT INTO ${qualified(target)} SELECT s.* FROM ${from} s LEFT JOIN ${qualified(target)} t ON t.${target.key} = s.${target.key} WHERE t.${target.key} IS NULL`;
    }
    case 'report':
      return `SELECT DATE_TRUNC('month', f.${time}) AS month, d.${dim.key}, SUM(f.amount) AS total FROM ${qualified(fact)} f JOIN ${qualified(dim)} d USING (${dim.key}) GROUP BY 1, 2 ORDER BY 1`;
  }
}

/** The queries submitted in one slot of one cluster, in submission order. */
export function queriesInSlot(
  cluster: SimulatedCluster,
  tables: readonly SimulatedTable[],
  slot: number,
  slotSeed = seedOf(cluster.id, 'slot'),
): SimulatedQuery[] {
  const random = randomFrom(extendSeed(slotSeed, slot));
  const slotStart = slot * SLOT_SECONDS;
  const mix = mixAt(cluster, slotStart);
  const queries: SimulatedQuery[] = [];
  // A query that would spill past the free disk fails with "disk full" instead; stay well below.
  const spillCeilingMb = capacityGb(cluster) * 1024 * SPILL_CEILING_SHARE;
  for (let i = 0; i < MAX_ARRIVALS_PER_SLOT; i++) {
    if (!random.chance(mix.perMinute / MAX_ARRIVALS_PER_SLOT)) continue;
    const kind = random.weighted(mix.kinds);
    const profile = PROFILES[kind];
    const submittedAt = slotStart + random.next() * SLOT_SECONDS;
    const execStartAt = submittedAt + profile.queueSeconds(random, mix.etlWindow);
    const execSeconds = profile.execSeconds(random);
    const spillMb = profile.spillMb(random, execSeconds);
    queries.push({
      clusterId: cluster.id,
      queryId: queryIdOf(cluster, slot, i),
      kind,
      userName: random.pick(profile.users),
      database: cluster.database,
      queue: profile.queue,
      submittedAt,
      execStartAt,
      endAt: execStartAt + execSeconds,
      spillMb: spillMb > 0 ? Math.max(1, Math.round(Math.min(spillCeilingMb, spillMb))) : 0,
      cpuPct: profile.cpuPct(random),
      tables,
      textSeed: random.int(0, 0x7fff_ffff),
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
  const slotSeed = seedOf(cluster.id, 'slot');
  for (let slot = firstSlot; slot <= lastSlot; slot++) {
    for (const query of queriesInSlot(cluster, tables, slot, slotSeed)) {
      if (query.submittedAt <= toSeconds && query.endAt > fromSeconds) found.push(query);
    }
  }
  return found;
}

export const isExecutingAt = (query: SimulatedQuery, atSeconds: number) =>
  query.execStartAt <= atSeconds && atSeconds < query.endAt;
export const isQueuedAt = (query: SimulatedQuery, atSeconds: number) =>
  query.submittedAt <= atSeconds && atSeconds < query.execStartAt;
