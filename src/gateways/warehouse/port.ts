/**
 * The warehouse port: one operation per question the platform asks a Redshift warehouse.
 * Adapters: redshift/ (Data API against system views) and simulated/ (embedded default).
 *
 * Every operation is scoped by env_id (the cluster and schema come from the environment, never
 * from the caller) and reads live: nothing here is cached but the monitoring user's visibility. Failures are typed (errors.ts):
 * WarehouseUnavailableError for a warehouse that cannot answer, UnknownClusterError,
 * UnknownMetricError and MetricNotSupportedError for metric requests that cannot be answered.
 */

export * from './errors.js';
export type * from './sync-sources.js';
export * from './diagnostics.js';
import type { WarehouseDiagnostics } from './diagnostics.js';
import type { WarehouseSyncSources } from './sync-sources.js';

/** The injected clock; logic never reads the system time itself. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** SPEC.md Limits: "more than 5 minutes of execution". */
export const SLOW_QUERY_THRESHOLD_SECONDS = 300;
/** The spill list is a top list; SPEC does not size it, the issue does. */
export const SPILL_TOP_N = 20;
/** SPEC is silent on the spill look-back; a day covers a full ETL cycle and stays within STL retention. */
export const SPILL_LOOKBACK_HOURS = 24;
/** SPEC.md Limits: "Table alert look-back: 7 days". */
export const TABLE_ALERT_LOOKBACK_DAYS = 7;
/** A table needs attention above these (the thresholds Redshift's own advisor uses). */
export const VACUUM_UNSORTED_THRESHOLD_PCT = 5;
export const VACUUM_STATS_OFF_THRESHOLD_PCT = 10;

export type WarehouseKind = 'provisioned' | 'serverless';

/**
 * `compute`: a compute node of a multi-node cluster (the leader holds no user data and is not
 * listed by the storage views); `shared`: the single node of a one-node cluster;
 * `serverless`: a workgroup, which has no nodes, reported as one pseudo-node.
 */
export type NodeRole = 'compute' | 'shared' | 'serverless';

export interface WarehouseNode {
  cluster_id: string;
  id: string;
  role: NodeRole;
  slices: number;
  /** null for serverless: managed storage has no fixed capacity. */
  capacity_gb: number | null;
  used_gb: number;
  pct_used: number | null;
}

export interface StorageTotals {
  node_count: number;
  slices: number;
  capacity_gb: number | null;
  used_gb: number;
  pct_used: number | null;
}

export interface ClusterSummary extends StorageTotals {
  cluster_id: string;
  kind: WarehouseKind;
  node_type: string | null;
}

export interface ClusterHealth {
  clusters: ClusterSummary[];
  nodes: WarehouseNode[];
  totals: StorageTotals;
}

export interface SlowQuery {
  query_id: number;
  exec_time_seconds: number;
  user_name: string;
  database: string;
  wlm_queue: string;
  query_text: string;
  cluster_id: string;
}

export interface SpillQuery {
  query_id: number;
  user_name: string;
  spill_mb: number;
  exec_time_seconds: number;
  query_text: string;
  cluster_id: string;
}

export interface VacuumCandidate {
  schema: string;
  table_name: string;
  unsorted_pct: number;
  stats_off: number;
  tbl_rows: number;
  size_mb: number;
  pct_ghost_rows: number;
  recommendation: string;
  cluster_id: string;
}

export interface TableAlert {
  schema: string;
  table_name: string;
  event: string;
  solution: string;
  count: number;
  /** ISO 8601 */
  last_seen: string;
  sample_query_id: number;
  cluster_id: string;
}

export interface StorageTable {
  schema: string;
  table_name: string;
  size_mb: number;
  tbl_rows: number;
  unsorted_pct: number;
  pct_ghost_rows: number;
  dist_style: string;
  sortkey1: string;
  cluster_id: string;
}

/**
 * Whose queries the warehouse shows the monitoring user. On Redshift the STL/STV/SVL and SYS views
 * show a regular user only its own rows unless it is a superuser, has SYSLOG ACCESS UNRESTRICTED
 * or holds a system role (sys:monitor, sys:operator): then every query answer and metric would
 * silently cover the monitor's own statements alone. `unknown`: the check itself failed (asked
 * again on the next request).
 */
export type QueryVisibility = 'all_queries' | 'own_queries_only' | 'unknown';

/** Where a metric is read: an environment, optionally narrowed to one of its clusters. */
export interface MetricScope {
  envId: string;
  clusterId?: string;
  /** The rule's evaluation_window_minutes: a positive whole number. */
  windowMinutes: number;
}

export interface MetricRequest extends MetricScope {
  metric: string;
}

/** The sync sources (sync-sources.ts) and the diagnostics (diagnostics.ts) are part of the port: every adapter answers them. */
export interface WarehouseGateway extends WarehouseSyncSources, WarehouseDiagnostics {
  /** Nodes with their storage, per cluster, and totals over the environment. */
  cluster(envId: string): Promise<ClusterHealth>;
  /** Queries executing for more than SLOW_QUERY_THRESHOLD_SECONDS, longest first. */
  slowQueries(envId: string): Promise<SlowQuery[]>;
  /** Top SPILL_TOP_N queries by disk spill over the last SPILL_LOOKBACK_HOURS, largest first. */
  spillQueries(envId: string): Promise<SpillQuery[]>;
  /** Tables over the unsorted or stale-statistics thresholds, most unsorted first. */
  vacuumCandidates(envId: string): Promise<VacuumCandidate[]>;
  /** Alert events per (table, event) over the last TABLE_ALERT_LOOKBACK_DAYS, most frequent first. */
  tableAlerts(envId: string): Promise<TableAlert[]>;
  /** Every table of the environment schema, largest first. */
  storage(envId: string): Promise<StorageTable[]>;
  /** One built-in metric (metric-catalogue.ts) over the window, optionally scoped to a cluster. */
  readMetric(request: MetricRequest): Promise<number>;
  /**
   * Whether the query views show every user's queries to us. The one answer that may be cached
   * (by the adapter, per environment): it changes only when an administrator changes grants.
   */
  queryVisibility(envId: string): Promise<QueryVisibility>;
  /**
   * The superuser-only system views the monitoring user may not read, with the grants that fix
   * it (for /health). Only a real warehouse has such views; may be cached like queryVisibility.
   */
  systemViewAccess?(envId: string): Promise<SystemViewAccess>;
}

/** `denied` is empty when every view is readable (or could not be checked: `unchecked`). */
export interface SystemViewAccess {
  denied: readonly string[];
  grants: readonly string[];
  unchecked: readonly string[];
}
