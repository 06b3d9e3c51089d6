/**
 * The five built-in sync jobs: which warehouse source each reads, how a source record becomes a
 * row of its table (src/syncstore/tables.ts), and whether it copies incrementally. Incremental
 * jobs read [high water − late arrival, now) in one-hour pages, so a long gap is streamed with
 * flat memory and a re-read overlap catches rows the warehouse logs late (upserts make it harmless).
 */
import { BUILTIN_METRIC_IDS } from '../../gateways/warehouse/metric-catalogue.js';
import type { SourceWindow, WarehouseGateway } from '../../gateways/warehouse/port.js';
import { MetricNoDataError, MetricNotSupportedError } from '../../gateways/warehouse/port.js';
import type { SyncJobId } from '../../events/sync-job.js';
import { METRIC_SAMPLE_MINUTES } from '../../gateways/warehouse/metric-history-port.js';
import type { SyncRow } from '../../syncstore/upsert.js';

/** Rows the warehouse logs after their own timestamp are caught by re-reading this much. */
export const LATE_ARRIVAL_MS = 5 * 60_000;
/** A job's first incremental run copies this much history. */
export const INITIAL_BACKFILL_MS = 24 * 3_600_000;
export const PAGE_MS = 3_600_000;
/** The window metrics are sampled over (the shortest alert-rule window). */

export interface ExtractContext {
  warehouse: WarehouseGateway;
  envId: string;
  now: Date;
  /** The last successful run's high-water mark (ISO), or null. */
  highWater: string | null;
}

export interface SyncJobDefinition {
  id: SyncJobId;
  /** The target table; the job id names it. */
  table: SyncJobId;
  incremental: boolean;
  description: string;
  /** Source rows, page by page, already shaped as table rows. */
  extract(context: ExtractContext): AsyncIterable<SyncRow[]>;
}

/** The pages [from, to) of an incremental read. */
export function windowsOf(highWater: string | null, now: Date): SourceWindow[] {
  const start = highWater ? Date.parse(highWater) - LATE_ARRIVAL_MS : now.getTime() - INITIAL_BACKFILL_MS;
  const windows: SourceWindow[] = [];
  for (let from = start; from < now.getTime(); from += PAGE_MS)
    windows.push({ from: new Date(from), to: new Date(Math.min(from + PAGE_MS, now.getTime())) });
  return windows;
}

const stamp = (context: ExtractContext, row: SyncRow): SyncRow => ({
  env_id: context.envId,
  synced_at: context.now,
  ...row,
});

export const SYNC_JOBS: Record<SyncJobId, SyncJobDefinition> = {
  query_history: {
    id: 'query_history',
    table: 'query_history',
    incremental: true,
    description: 'finished queries, by end time',
    async *extract(context) {
      for (const window of windowsOf(context.highWater, context.now)) {
        const queries = await context.warehouse.finishedQueries(context.envId, window);
        yield queries.map((q) =>
          stamp(context, {
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
          }),
        );
      }
    },
  },
  table_storage: {
    id: 'table_storage',
    table: 'table_storage',
    incremental: false,
    description: 'size and health of every table (snapshot)',
    async *extract(context) {
      const tables = await context.warehouse.tableStats(context.envId);
      yield tables.map((row) =>
        stamp(context, {
          cluster_id: row.cluster_id,
          schema_name: row.schema,
          table_name: row.table_name,
          size_mb: row.size_mb,
          tbl_rows: row.tbl_rows,
          unsorted_pct: row.unsorted_pct,
          stats_off_pct: row.stats_off,
          skew_rows: row.skew_rows,
          sampled_at: context.now,
        }),
      );
    },
  },
  cluster_metrics: {
    id: 'cluster_metrics',
    table: 'cluster_metrics',
    incremental: false,
    description: 'the seven alert metrics per cluster (sample)',
    async *extract(context) {
      const { clusters } = await context.warehouse.cluster(context.envId);
      const rows: SyncRow[] = [];
      for (const cluster of clusters) {
        for (const metric of BUILTIN_METRIC_IDS) {
          try {
            const value = await context.warehouse.readMetric({
              envId: context.envId,
              clusterId: cluster.cluster_id,
              metric,
              windowMinutes: METRIC_SAMPLE_MINUTES,
            });
            rows.push(stamp(context, { cluster_id: cluster.cluster_id, metric, sampled_at: context.now, value }));
          } catch (error) {
            // A metric the warehouse kind cannot measure, or with no value now, is skipped (a gap
            // the backtest shows as one), not a failed run.
            if (!(error instanceof MetricNotSupportedError || error instanceof MetricNoDataError)) throw error;
          }
        }
      }
      yield rows;
    },
  },
  wlm_queue_stats: {
    id: 'wlm_queue_stats',
    table: 'wlm_queue_stats',
    incremental: false,
    description: 'queries waiting and executing per WLM queue (sample)',
    async *extract(context) {
      const queues = await context.warehouse.wlmQueues(context.envId);
      yield queues.map((q) =>
        stamp(context, {
          cluster_id: q.cluster_id,
          queue: q.queue,
          sampled_at: context.now,
          waiting: q.waiting,
          executing: q.executing,
          avg_wait_ms: q.avg_wait_ms,
        }),
      );
    },
  },
  alert_events: {
    id: 'alert_events',
    table: 'alert_events',
    incremental: true,
    description: "the warehouse's alert log, by event time",
    async *extract(context) {
      for (const window of windowsOf(context.highWater, context.now)) {
        const events = await context.warehouse.alertLog(context.envId, window);
        yield events.map((e) =>
          stamp(context, {
            cluster_id: e.cluster_id,
            query_id: e.query_id,
            event: e.event,
            event_time: e.event_time,
            schema_name: e.schema,
            table_name: e.table_name,
            solution: e.solution,
          }),
        );
      }
    },
  },
};
