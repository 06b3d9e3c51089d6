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
  WORST_COMMITS_CAP,
  type LongQuery,
  type QueryDetails,
  type WarehouseDiagnostics,
} from '../../diagnostics.js';
import { checkReadOnlySelect, outsideReason, relationsOutside } from '../../read-only-select.js';
import { roundTo } from '../../table-health.js';
import type { ClusterSnapshot } from '../cluster-state.js';
import {
  isExecutingAt,
  isQueuedAt,
  queriesInSlot,
  queriesOverlapping,
  queryTextOf,
  SLOT_SECONDS,
  type SimulatedQuery,
} from '../workload.js';
import { loadErrorsBetween, scalingPeriodsBetween } from './loads.js';
import { planLines, referencedTables } from './planner.js';
import { querySteps } from './query-steps.js';
import { columnsIn, schemasIn, tablesIn } from './catalogue.js';
import { commitsBetween, lockWaitsAt, pidOf } from './transactions.js';
import { queueWaitStats, userWorkloadStats } from './workload-stats.js';

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

const catalogueOf = (snapshot: ClusterSnapshot) =>
  snapshot.tables.map((table, i) => ({ table, figures: snapshot.figures[i]! }));

/** The query with this id, if it was submitted by `at` and within the look-back the views keep. */
function findQuery(
  snapshots: readonly ClusterSnapshot[],
  queryId: number,
  at: number,
): { query: SimulatedQuery; snapshot: ClusterSnapshot } | undefined {
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
        .map(
          (q): LongQuery => ({
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
          }),
        );
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
        steps:
          executing || finished
            ? querySteps(query, text, catalogueOf(snapshot), Math.min(at, query.endAt) - query.execStartAt)
            : [],
        plan,
      };
    },

    async explain(envId, selectSql) {
      const checked = await checkReadOnlySelect(selectSql);
      if (!checked.ok) throw new RefusedSqlError(`refused: ${checked.reason}`);
      const { snapshots } = open(envId);
      // As the Redshift adapter: only the environment's own schemas are planned.
      const schemas = schemasIn(snapshots).map((entry) => entry.schema);
      const outside = relationsOutside(checked.relations, schemas);
      if (outside.length > 0) throw new RefusedSqlError(`refused: ${outsideReason(outside, schemas)}`);
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
      return queueWaitStats(queriesBetween(snapshots, from, at), from, at);
    },

    async lockWaits(envId) {
      const { at, snapshots } = open(envId);
      return lockWaitsAt(snapshots, at);
    },

    async commitQueue(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      const { summaries, records } = commitsBetween(snapshots, at - hours * HOUR, at);
      const worst = records
        .sort(
          (a, b) =>
            (b.queue_seconds ?? 0) - (a.queue_seconds ?? 0) || b.commit_seconds - a.commit_seconds || a.xid - b.xid,
        )
        .slice(0, WORST_COMMITS_CAP);
      return { summaries, worst };
    },

    async loadErrors(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      return loadErrorsBetween(snapshots, at - hours * HOUR, at).slice(0, LOAD_ERRORS_CAP);
    },

    async userWorkload(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      return userWorkloadStats(finishedBetween(snapshots, at - hours * HOUR, at));
    },

    async concurrencyScaling(envId, hours) {
      const { at, snapshots } = openBack(envId, hours);
      return scalingPeriodsBetween(snapshots, at - hours * HOUR, at);
    },

    schemas: async (envId) => schemasIn(open(envId).snapshots),
    tables: async (envId, schema) => tablesIn(open(envId).snapshots, schema),
    columns: async (envId, schema, table) => columnsIn(open(envId).snapshots, schema, table),
  };
}
