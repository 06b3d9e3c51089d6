import { capacityGb, type SimulatedCluster } from './fleet.js';
import { randomFrom, seedOf } from './prng.js';

/**
 * The tables of a simulated cluster and their fixed traits (size class, distribution, sort key,
 * how fast they drift out of sort). table-state.ts turns the traits into figures at an instant.
 */

type TableKind = 'fact' | 'dim' | 'stage' | 'agg';

interface TableBlueprint {
  schema: string;
  name: string;
  kind: TableKind;
  /** Join key, used for KEY distribution and in generated query text. */
  key: string;
  /** Event-time column: the natural leading sort key; absent on dimensions. */
  timeColumn?: string;
  columns: number;
}

const BLUEPRINTS: readonly TableBlueprint[] = [
  { schema: 'analytics', name: 'fact_orders', kind: 'fact', key: 'order_id', timeColumn: 'ordered_at', columns: 24 },
  {
    schema: 'analytics',
    name: 'fact_order_items',
    kind: 'fact',
    key: 'order_id',
    timeColumn: 'ordered_at',
    columns: 18,
  },
  {
    schema: 'analytics',
    name: 'fact_page_views',
    kind: 'fact',
    key: 'session_id',
    timeColumn: 'viewed_at',
    columns: 31,
  },
  {
    schema: 'analytics',
    name: 'fact_sessions',
    kind: 'fact',
    key: 'session_id',
    timeColumn: 'started_at',
    columns: 22,
  },
  { schema: 'analytics', name: 'fact_payments', kind: 'fact', key: 'payment_id', timeColumn: 'paid_at', columns: 16 },
  {
    schema: 'analytics',
    name: 'fact_inventory_snapshots',
    kind: 'fact',
    key: 'product_id',
    timeColumn: 'snapshot_date',
    columns: 12,
  },
  { schema: 'analytics', name: 'fact_shipments', kind: 'fact', key: 'order_id', timeColumn: 'shipped_at', columns: 19 },
  { schema: 'analytics', name: 'dim_customer', kind: 'dim', key: 'customer_id', columns: 28 },
  { schema: 'analytics', name: 'dim_product', kind: 'dim', key: 'product_id', columns: 21 },
  { schema: 'analytics', name: 'dim_date', kind: 'dim', key: 'date_key', columns: 14 },
  { schema: 'analytics', name: 'dim_store', kind: 'dim', key: 'store_id', columns: 11 },
  { schema: 'analytics', name: 'dim_campaign', kind: 'dim', key: 'campaign_id', columns: 15 },
  {
    schema: 'analytics',
    name: 'agg_daily_revenue',
    kind: 'agg',
    key: 'store_id',
    timeColumn: 'revenue_date',
    columns: 9,
  },
  { schema: 'analytics', name: 'agg_customer_ltv', kind: 'agg', key: 'customer_id', columns: 8 },
  { schema: 'staging', name: 'stg_events_raw', kind: 'stage', key: 'event_id', timeColumn: 'received_at', columns: 12 },
  { schema: 'staging', name: 'stg_orders', kind: 'stage', key: 'order_id', timeColumn: 'loaded_at', columns: 26 },
  {
    schema: 'staging',
    name: 'stg_clickstream',
    kind: 'stage',
    key: 'session_id',
    timeColumn: 'received_at',
    columns: 17,
  },
  {
    schema: 'staging',
    name: 'stg_crm_contacts',
    kind: 'stage',
    key: 'customer_id',
    timeColumn: 'loaded_at',
    columns: 33,
  },
  { schema: 'marts', name: 'mart_finance_monthly', kind: 'agg', key: 'account_id', timeColumn: 'month', columns: 20 },
  {
    schema: 'marts',
    name: 'mart_marketing_attribution',
    kind: 'agg',
    key: 'campaign_id',
    timeColumn: 'touched_at',
    columns: 25,
  },
  { schema: 'marts', name: 'mart_churn_features', kind: 'agg', key: 'customer_id', columns: 42 },
];

export interface SimulatedTable {
  clusterId: string;
  schema: string;
  name: string;
  kind: TableKind;
  key: string;
  timeColumn: string | undefined;
  columns: number;
  distStyle: string;
  sortkey1: string;
  rowWidthBytes: number;
  /** Rows right after the retention job trimmed the table. */
  baseRows: number;
  /** Rows grow by this share of baseRows until retention trims them again. */
  retentionGrowth: number;
  retentionDays: number;
  /** Hours between automatic vacuums; unsorted and ghost rows build up in between. */
  vacuumCycleHours: number;
  maxUnsortedPct: number;
  maxGhostPct: number;
  analyzeCycleHours: number;
  maxStatsOff: number;
  /** Offsets so tables of one cluster are not all vacuumed at the same instant. */
  phaseHours: number;
  /** Relative likelihood that a query touching this table raises an alert event. */
  alertProneness: number;
}

const SIZE_WEIGHT: Record<TableKind, [number, number]> = {
  fact: [40, 1.0],
  dim: [1.5, 0.8],
  stage: [12, 1.0],
  agg: [2, 0.7],
};

function distributionFor(blueprint: TableBlueprint, random: ReturnType<typeof randomFrom>): string {
  switch (blueprint.kind) {
    case 'dim':
      return random.chance(0.7) ? 'ALL' : `KEY(${blueprint.key})`;
    case 'fact':
      return random.chance(0.75) ? `KEY(${blueprint.key})` : 'EVEN';
    case 'stage':
      return random.chance(0.5) ? 'EVEN' : 'AUTO(EVEN)';
    case 'agg':
      return random.chance(0.5) ? `AUTO(KEY(${blueprint.key}))` : 'AUTO(ALL)';
  }
}

function sortKeyFor(blueprint: TableBlueprint, random: ReturnType<typeof randomFrom>): string {
  if (blueprint.timeColumn && random.chance(0.85)) return blueprint.timeColumn;
  if (blueprint.kind === 'dim') return blueprint.key;
  return random.chance(0.5) ? 'AUTO(SORTKEY)' : '';
}

export const CENTRAL_FACT_TABLE = 'fact_orders';

export function tableCatalogue(cluster: SimulatedCluster): SimulatedTable[] {
  const random = randomFrom(seedOf(cluster.id, 'tables'));
  // Every cluster holds the central fact table (examples and runbooks name it); the draw is made
  // all the same, so every other table's draws stay what they were.
  const chosen = BLUEPRINTS.filter((blueprint) => {
    const drawn = cluster.role === 'etl' ? blueprint.kind !== 'dim' || random.chance(0.4) : random.chance(0.8);
    return drawn || blueprint.name === CENTRAL_FACT_TABLE;
  });
  const drafts = chosen.map((blueprint) => {
    const [median, spread] = SIZE_WEIGHT[blueprint.kind];
    const stageBoost = cluster.role === 'etl' && blueprint.kind === 'stage' ? 3 : 1;
    return {
      blueprint,
      weight: random.logNormal(median, spread) * stageBoost,
      rowWidthBytes: blueprint.columns * random.int(6, 14),
    };
  });
  // Size the tables so that, at mid-retention, they fill about fillRatio of the cluster.
  const targetMb = cluster.fillRatio * capacityGb(cluster) * 1024;
  const totalWeight = drafts.reduce((sum, draft) => sum + draft.weight, 0);
  return drafts.map(({ blueprint, weight, rowWidthBytes }) => {
    const retentionGrowth = blueprint.kind === 'dim' ? random.between(0.01, 0.05) : random.between(0.08, 0.3);
    const shareMb = (weight / totalWeight) * targetMb;
    const baseRows = Math.max(1_000, Math.round((shareMb * 1_048_576) / rowWidthBytes / (1 + retentionGrowth / 2)));
    const churny = blueprint.kind === 'stage' || blueprint.kind === 'fact';
    return {
      clusterId: cluster.id,
      schema: blueprint.schema,
      name: blueprint.name,
      kind: blueprint.kind,
      key: blueprint.key,
      timeColumn: blueprint.timeColumn,
      columns: blueprint.columns,
      distStyle: distributionFor(blueprint, random),
      sortkey1: sortKeyFor(blueprint, random),
      rowWidthBytes,
      baseRows,
      retentionGrowth,
      retentionDays: random.int(14, 90),
      vacuumCycleHours: random.int(6, 96),
      maxUnsortedPct: churny ? random.between(4, 45) : random.between(0, 12),
      maxGhostPct: churny ? random.between(2, 30) : random.between(0, 6),
      analyzeCycleHours: random.int(12, 168),
      maxStatsOff: random.between(2, 40),
      phaseHours: random.between(0, 168),
      alertProneness: random.logNormal(1, 0.8) * (blueprint.kind === 'fact' ? 2 : 1),
    };
  });
}
