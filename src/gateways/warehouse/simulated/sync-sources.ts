/**
 * The simulated warehouse's sync sources, derived from the same seeded workload, tables and alert
 * log as every other answer, so the copies agree with /warehouse answers and grow as time passes
 * (about three finished queries a minute per cluster, more in the ETL window).
 */
import { ALERT_EVENTS } from '../alert-events.js';
import type { SourceWindow, WarehouseSyncSources } from '../sync-sources.js';
import { roundTo } from '../table-health.js';
import { alertEventsBetween } from './alert-log.js';
import type { ClusterSnapshot } from './cluster-state.js';
import { randomFrom, seedOf } from './prng.js';
import { isExecutingAt, isQueuedAt, queriesOverlapping, queryTextOf, type SimulatedQuery } from './workload.js';

type Open = (envId: string) => { at: number; snapshots: ClusterSnapshot[] };

const iso = (seconds: number) => new Date(Math.floor(seconds * 1000)).toISOString();
/** The milliseconds an ISO time keeps, so a window boundary and a stored end_time agree exactly. */
const ms = (seconds: number) => Math.floor(seconds * 1000);

/** Rows a query returned: small for dashboards, none for loads, heavy-tailed for analysis. */
function rowsOf(query: SimulatedQuery): number {
  const random = randomFrom(seedOf(query.clusterId, 'rows', query.queryId));
  switch (query.kind) {
    case 'dashboard':
      return random.int(1, 500);
    case 'etl':
      return 0;
    case 'report':
      return random.int(100, 50_000);
    case 'adhoc':
      return random.chance(0.1) ? random.int(100_000, 5_000_000) : random.int(0, 10_000);
  }
}

/** Skew is a trait of the table's distribution: EVEN and ALL spread rows, a KEY may not. */
function skewOf(clusterId: string, schema: string, name: string, distStyle: string): number {
  if (!distStyle.startsWith('KEY')) return 1;
  return roundTo(1 + randomFrom(seedOf(clusterId, 'skew', schema, name)).next() * 2.5, 2);
}

export function simulatedSyncSources(open: Open): WarehouseSyncSources {
  return {
    async finishedQueries(envId, window: SourceWindow) {
      const { at, snapshots } = open(envId);
      const fromMs = window.from.getTime();
      const toMs = Math.min(window.to.getTime(), ms(at));
      if (toMs <= fromMs) return [];
      return snapshots
        .flatMap((s) => queriesOverlapping(s.cluster, s.tables, fromMs / 1000, toMs / 1000))
        .filter((q) => ms(q.endAt) >= fromMs && ms(q.endAt) < toMs)
        .sort((a, b) => a.endAt - b.endAt || a.queryId - b.queryId)
        .map((q) => ({
          cluster_id: q.clusterId,
          query_id: q.queryId,
          user_name: q.userName,
          database: q.database,
          queue: q.queue,
          start_time: iso(q.execStartAt),
          end_time: iso(q.endAt),
          elapsed_ms: ms(q.endAt) - ms(q.execStartAt),
          rows: rowsOf(q),
          spilled_bytes: Math.round(q.spillMb * 1_048_576),
          query_text: queryTextOf(q),
        }));
    },

    async tableStats(envId) {
      const { snapshots } = open(envId);
      return snapshots.flatMap(({ tables, figures }) =>
        tables.map((table, i) => ({
          cluster_id: table.clusterId,
          schema: table.schema,
          table_name: table.name,
          size_mb: figures[i]!.size_mb,
          tbl_rows: figures[i]!.tbl_rows,
          unsorted_pct: figures[i]!.unsorted_pct,
          stats_off: figures[i]!.stats_off,
          skew_rows: skewOf(table.clusterId, table.schema, table.name, table.distStyle),
        })),
      );
    },

    async wlmQueues(envId) {
      const { at, snapshots } = open(envId);
      return snapshots.flatMap((s) => {
        const live = queriesOverlapping(s.cluster, s.tables, at, at);
        const queues = new Map<string, { waiting: number; executing: number; waitedMs: number }>();
        for (const query of live) {
          const queue = queues.get(query.queue) ?? { waiting: 0, executing: 0, waitedMs: 0 };
          if (isQueuedAt(query, at)) {
            queue.waiting += 1;
            queue.waitedMs += ms(at) - ms(query.submittedAt);
          } else if (isExecutingAt(query, at)) queue.executing += 1;
          queues.set(query.queue, queue);
        }
        return [...queues.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([queue, load]) => ({
            cluster_id: s.cluster.id,
            queue,
            waiting: load.waiting,
            executing: load.executing,
            avg_wait_ms: load.waiting === 0 ? 0 : Math.round(load.waitedMs / load.waiting),
          }));
      });
    },

    async alertLog(envId, window) {
      const { at, snapshots } = open(envId);
      const fromMs = window.from.getTime();
      const toMs = Math.min(window.to.getTime(), ms(at));
      if (toMs <= fromMs) return [];
      return snapshots
        .flatMap((s) => alertEventsBetween(s.cluster, s.tables, fromMs / 1000, toMs / 1000))
        .filter((event) => ms(event.at) >= fromMs && ms(event.at) < toMs)
        .sort((a, b) => a.at - b.at || a.queryId - b.queryId)
        .map((event) => ({
          cluster_id: event.table.clusterId,
          query_id: event.queryId,
          event: ALERT_EVENTS[event.kind].event,
          event_time: iso(event.at),
          schema: event.table.schema,
          table_name: event.table.name,
          solution: ALERT_EVENTS[event.kind].solution,
        }));
    },
  };
}
