/**
 * The simulated warehouse's answers to the diagnostic questions (diagnostics.ts), derived from the
 * same seeded workload, tables and clock as every other answer: the query a listing names is the
 * query query_details finds, its users and queues are the workload's, and everything moves as
 * time passes.
 */
import {
  assertLookback,
  LOAD_ERRORS_CAP,
  LONGEST_QUERIES_CAP,
  MAX_LOOKBACK_HOURS,
  RefusedSqlError,
  USER_WORKLOAD_CAP,
  WORST_COMMITS_CAP,
  type LongQuery,
  type QueryDetails,
  type QueueWaitStats,
  type UserWorkload,
  type WarehouseDiagnostics,
} from '../../diagnostics.js';
import { checkReadOnlySelect } from '../../read-only-select.js';
import { roundTo } from '../../table-health.js';
import type { ClusterSnapshot } from '../cluster-state.js';
import { isExecutingAt, isQueuedAt, queriesInSlot, queriesOverlapping, queryTextOf, SLOT_SECONDS, type SimulatedQuery } from '../workload.js';
import { loadErrorsBetween, scalingPeriodsBetween } from './loads.js';
import { planLines, referencedTables } from './planner.js';
import { querySteps } from './query-steps.js';
import { columnsOf } from './table-columns.js';
import { commitsBetween, lockWaitsAt, pidOf } from './transactions.js';

type Open = (envId: string) => { at: number; snapshots: ClusterSnapshot[] };

/** Opens the environment for a look-back question: the hours are checked first, like the Redshift adapter does. */
const openFor = (open: Open) => (envId: string, hours: number) => {
  assertLookback(hours);
  return open(envId);
};

const HOUR = 3600;
const iso = (seconds: number) => new Date(Math.floor(seconds * 1000)).toISOString();
const seconds = (value: number) => roundTo(value, 3);
/** Query ids are laid out 8 to a one-minute slot (workload.ts). */
const ARRIVALS_PER_SLOT = 8;
const SCHEMA_OWNERS: Record<string, string> = { analytics: 'dbt_runner', staging: 'etl_airflow', marts: 'dbt_runner' };

const catalogueOf = (snapshot: ClusterSnapshot) => snapshot.tables.map((table, i) => ({ table, figures: snapshot.figures[i]! }));

/** The query with this id, if it was submitted by `at` and within the look-back the views keep. */
function findQuery(snapshots: readonly ClusterSnapshot[], queryId: number, at: number): { query: SimulatedQuery; snapshot: ClusterSnapshot } | undefined {
  for (const snapshot of snapshots) {
    const offset = queryId - snapshot.cluster.queryIdBase;
    if (offset < 0) continue;
    const slot = Math.floor(offset / ARRIVALS_PER_SLOT);
    if (slot * SLOT_SECONDS > at || slot * SLOT_SECONDS < at - MAX_LOOKBACK_HOURS * HOUR) continue;
    const query = queriesInSlot(snapshot.cluster, snapshot.tables, slot).find((q) => q.queryId === queryId);
    if (query && query.submittedAt <= at) return { query, snapshot };
  }
  return undefined;
}

/** The SELECT part of a query's text: a load's plan is the plan of what it inserts. */
const selectPartOf = (text: string) => text.replace(/^INSERT INTO \S+ /, '');

function planOf(text: string, snapshot: ClusterSnapshot): string[] {
  try {
    return planLines(text, referencedTables(text, catalogueOf(snapshot)));
  } catch {
    // A load whose staging source is not in the catalogue has no stored plan to show.
    return [];
  }
}

export function simulatedDiagnostics(open: Open): WarehouseDiagnostics {
  const openBack = openFor(open);
  /** Every query of the environment whose life overlaps [from, at]. */
  const queriesBetween = (snapshots: readonly ClusterSnapshot[], from: number, at: number) =>
    snapshots.flatMap((s) => queriesOverlapping(s.cluster, s.tables, from, at));
  const finishedBetween = (snapshots: readonly ClusterSnapshot[], from: number, at: number) =>
    queriesBetween(snapshots, from, at).filter((q) => q.endAt <= at && q.endAt >= from);

  return {
    async runningQueries(envId) {
      const { at, snapshots } = open(envId);
      return queriesBetween(snapshots, at, at)
        .filter((q) => isQueuedAt(q, at) || isExecutingAt(q, at))
        .sort((a, b) => a.submittedAt - b.submittedAt || a.queryId - b.queryId)
        .map((q) => ({
          cluster_id: q.clusterId,
          query_id: q.queryId,
          pid: pidOf(q),
          user_name: q.userName,
          database: q.database,
          queue: q.queue,
          state: isQueuedAt(q, at) ? ('queued' as const) : ('running' as const),
          submitted_at: iso(q.submittedAt),
          queue_seconds: Math.floor(Math.min(at, q.execStartAt) - q.submittedAt),
          exec_seconds: isQueuedAt(q, at) ? 0 : Math.floor(at - q.execStartAt),
          query_text: queryTextOf(q),
        }));
    },

    async longestQueries(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      return finishedBetween(snapshots, at - hours * HOUR, at)
        .sort((a, b) => b.endAt - b.execStartAt - (a.endAt - a.execStartAt) || a.queryId - b.queryId)
        .slice(0, LONGEST_QUERIES_CAP)
        .map((q): LongQuery => ({
          cluster_id: q.clusterId,
          query_id: q.queryId,
          user_name: q.userName,
          database: q.database,
          queue: q.queue,
          start_time: iso(q.submittedAt),
          end_time: iso(q.endAt),
          queue_seconds: seconds(q.execStartAt - q.submittedAt),
          exec_seconds: seconds(q.endAt - q.execStartAt),
          query_text: queryTextOf(q),
        }));
    },

    async queryDetails(envId, queryId): Promise<QueryDetails | null> {
      const { at, snapshots } = open(envId);
      const found = findQuery(snapshots, queryId, at);
      if (!found) return null;
      const { query, snapshot } = found;
      const text = queryTextOf(query);
      const finished = query.endAt <= at;
      const executing = isExecutingAt(query, at);
      const plan = planOf(selectPartOf(text), snapshot);
      return {
        cluster_id: query.clusterId,
        query_id: query.queryId,
        user_name: query.userName,
        database: query.database,
        queue: query.queue,
        status: finished ? 'success' : executing ? 'running' : 'queued',
        submitted_at: iso(query.submittedAt),
        end_time: finished ? iso(query.endAt) : null,
        queue_seconds: seconds(Math.min(at, query.execStartAt) - query.submittedAt),
        exec_seconds: seconds(Math.max(0, Math.min(at, query.endAt) - query.execStartAt)),
        spill_mb: finished ? query.spillMb : 0,
        query_text: text,
        // Steps are recorded as a query runs; a queued query has none yet.
        steps: executing || finished ? querySteps(query, text, catalogueOf(snapshot), Math.min(at, query.endAt) - query.execStartAt) : [],
        plan,
      };
    },

    async explain(envId, selectSql) {
      const checked = checkReadOnlySelect(selectSql);
      if (!checked.ok) throw new RefusedSqlError(`refused: ${checked.reason}`);
      const { snapshots } = open(envId);
      // A statement runs on one cluster: the first whose catalogue has every table it names.
      let firstError: unknown;
      for (const snapshot of snapshots) {
        try {
          return planLines(checked.statement, referencedTables(checked.statement, catalogueOf(snapshot)));
        } catch (error) {
          firstError ??= error;
        }
      }
      throw firstError;
    },

    async queueWaits(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      const from = at - hours * HOUR;
      const byQueue = new Map<string, { stats: QueueWaitStats; execTotal: number }>();
      for (const q of queriesBetween(snapshots, from, at).filter((q) => q.submittedAt >= from)) {
        const key = `${q.clusterId}\u0000${q.queue}`;
        const entry = byQueue.get(key) ?? {
          stats: { cluster_id: q.clusterId, queue: q.queue, queries: 0, queued_queries: 0, avg_queue_seconds: 0, max_queue_seconds: 0, total_queue_seconds: 0, avg_exec_seconds: 0 },
          execTotal: 0,
        };
        const waited = Math.min(at, q.execStartAt) - q.submittedAt;
        entry.stats.queries += 1;
        if (waited >= 1) entry.stats.queued_queries += 1;
        entry.stats.total_queue_seconds += waited;
        entry.stats.max_queue_seconds = Math.max(entry.stats.max_queue_seconds, waited);
        entry.execTotal += Math.max(0, Math.min(at, q.endAt) - q.execStartAt);
        byQueue.set(key, entry);
      }
      return [...byQueue.values()]
        .map(({ stats, execTotal }) => ({
          ...stats,
          avg_queue_seconds: seconds(stats.total_queue_seconds / stats.queries),
          max_queue_seconds: seconds(stats.max_queue_seconds),
          total_queue_seconds: seconds(stats.total_queue_seconds),
          avg_exec_seconds: seconds(execTotal / stats.queries),
        }))
        .sort((a, b) => b.total_queue_seconds - a.total_queue_seconds || a.queue.localeCompare(b.queue));
    },

    async lockWaits(envId) {
      const { at, snapshots } = open(envId);
      return lockWaitsAt(snapshots, at);
    },

    async commitQueue(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      const { summaries, records } = commitsBetween(snapshots, at - hours * HOUR, at);
      const worst = records
        .sort((a, b) => (b.queue_seconds ?? 0) - (a.queue_seconds ?? 0) || b.commit_seconds - a.commit_seconds || a.xid - b.xid)
        .slice(0, WORST_COMMITS_CAP);
      return { summaries, worst };
    },

    async loadErrors(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      return loadErrorsBetween(snapshots, at - hours * HOUR, at).slice(0, LOAD_ERRORS_CAP);
    },

    async userWorkload(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      const byUser = new Map<string, UserWorkload>();
      for (const q of finishedBetween(snapshots, at - hours * HOUR, at)) {
        const key = `${q.clusterId}\u0000${q.userName}`;
        const user = byUser.get(key) ?? {
          cluster_id: q.clusterId, user_name: q.userName, queries: 0, total_exec_seconds: 0, avg_exec_seconds: 0,
          max_exec_seconds: 0, total_queue_seconds: 0, avg_queue_seconds: 0, spill_mb: 0,
        };
        user.queries += 1;
        user.total_exec_seconds += q.endAt - q.execStartAt;
        user.max_exec_seconds = Math.max(user.max_exec_seconds, q.endAt - q.execStartAt);
        user.total_queue_seconds += q.execStartAt - q.submittedAt;
        user.spill_mb += q.spillMb;
        byUser.set(key, user);
      }
      return [...byUser.values()]
        .map((u) => ({
          ...u,
          total_exec_seconds: seconds(u.total_exec_seconds),
          avg_exec_seconds: seconds(u.total_exec_seconds / u.queries),
          max_exec_seconds: seconds(u.max_exec_seconds),
          total_queue_seconds: seconds(u.total_queue_seconds),
          avg_queue_seconds: seconds(u.total_queue_seconds / u.queries),
        }))
        .sort((a, b) => b.total_exec_seconds - a.total_exec_seconds || a.user_name.localeCompare(b.user_name))
        .slice(0, USER_WORKLOAD_CAP);
    },

    async concurrencyScaling(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      return scalingPeriodsBetween(snapshots, at - hours * HOUR, at);
    },

    async schemas(envId) {
      const { snapshots } = open(envId);
      return snapshots.flatMap((snapshot) => {
        const bySchema = new Map<string, { count: number; size: number }>();
        catalogueOf(snapshot).forEach(({ table, figures }) => {
          const entry = bySchema.get(table.schema) ?? { count: 0, size: 0 };
          bySchema.set(table.schema, { count: entry.count + 1, size: entry.size + figures.size_mb });
        });
        return [...bySchema.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([schema, { count, size }]) => ({ cluster_id: snapshot.cluster.id, schema, owner: SCHEMA_OWNERS[schema] ?? 'admin', table_count: count, size_mb: size }));
      });
    },

    async tables(envId, schema) {
      const { snapshots } = open(envId);
      return snapshots.flatMap((snapshot) =>
        catalogueOf(snapshot)
          .filter(({ table }) => table.schema === schema.toLowerCase())
          .sort((a, b) => a.table.name.localeCompare(b.table.name))
          .map(({ table, figures }) => ({
            cluster_id: table.clusterId, schema: table.schema, table_name: table.name, table_type: 'TABLE',
            size_mb: figures.size_mb, tbl_rows: figures.tbl_rows, dist_style: table.distStyle, sortkey1: table.sortkey1,
          })),
      );
    },

    async columns(envId, schema, table) {
      const { snapshots } = open(envId);
      return snapshots.flatMap((snapshot) =>
        snapshot.tables
          .filter((t) => t.schema === schema.toLowerCase() && t.name === table.toLowerCase())
          .flatMap((t) =>
            columnsOf(t).map((c) => ({
              cluster_id: t.clusterId, position: c.position, column_name: c.name, data_type: c.dataType,
              nullable: c.nullable, encoding: c.encoding, distkey: c.distkey, sortkey: c.sortkey,
            })),
          ),
      );
    },
  };
}
