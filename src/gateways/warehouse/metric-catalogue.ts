/**
 * The metrics SPEC.md lists ("Supported metrics"). Both adapters measure exactly these natively
 * (one SQL aggregate each on Redshift, the workload model in the simulator); further metrics are
 * added through the registry in metrics/registry.ts.
 */
export const BUILTIN_METRICS = {
  query_runtime_seconds: {
    unit: 'seconds',
    description: 'Longest execution time of any query that ran in the window (running queries count their time so far)',
  },
  disk_spill_gb: {
    unit: 'GB',
    description: 'Total disk spill of the queries that executed in the window',
  },
  queue_time_seconds: {
    unit: 'seconds',
    description: 'Longest workload-queue wait in the window (queries still queued count their wait so far)',
  },
  storage_utilization_pct: {
    unit: 'percent',
    description: 'Node storage used, as a share of the provisioned capacity',
  },
  unsorted_pct: {
    unit: 'percent',
    description: 'Unsorted rows across the tables of the environment schema, weighted by row count',
  },
  active_query_count: {
    unit: 'count',
    description: 'Queries executing now (the window does not apply)',
  },
  cpu_utilization_pct: {
    unit: 'percent',
    // An estimate, and labelled so: the system views have no host CPU gauge (CloudWatch's
    // CPUUtilization is that). Redshift: Σ(query CPU % × runtime) ÷ window over finished queries.
    description:
      "Estimated cluster CPU utilization over the window (from finished queries' CPU share and runtime; not the host gauge)",
  },
} as const satisfies Record<string, { unit: string; description: string }>;

export type BuiltinMetricId = keyof typeof BUILTIN_METRICS;

export const BUILTIN_METRIC_IDS = Object.keys(BUILTIN_METRICS) as BuiltinMetricId[];

export const isBuiltinMetric = (id: string): id is BuiltinMetricId => Object.hasOwn(BUILTIN_METRICS, id);
