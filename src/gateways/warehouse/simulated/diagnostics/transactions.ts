import type { CommitRecord, CommitSummary, LockWait } from '../../diagnostics.js';
import { roundTo } from '../../table-health.js';
import type { ClusterSnapshot } from '../cluster-state.js';
import { randomFrom, seedOf } from '../prng.js';
import { isExecutingAt, queriesOverlapping, queryTextOf, type SimulatedQuery } from '../workload.js';

/**
 * Locks and commits of the simulated workload. The loads (ETL queries) write their target table:
 * two loads of one table cannot write at once (a write takes ShareRowExclusiveLock, which
 * conflicts with itself), so among the loads of a table executing now, the one that started first
 * holds the lock and the others wait for it. Every load commits when it ends; the leader commits
 * one transaction at a time, so commits that end close together queue behind each other.
 */

const WRITE_LOCK = 'ShareRowExclusiveLock';
/** How far before a window the commit queue is replayed, so the window starts with its real backlog. */
const COMMIT_WARMUP_SECONDS = 900;

const iso = (seconds: number) => new Date(Math.floor(seconds * 1000)).toISOString();

/** The session id a query runs in (stable per query; Redshift's pids are of this size). */
export const pidOf = (query: SimulatedQuery) => 1_073_741_824 + (query.queryId % 1_000_000);
export const xidOf = (query: SimulatedQuery) => 40_000_000 + query.queryId;

/** The table a load writes ("INSERT INTO schema.table …"), or undefined for a read. */
export function writeTargetOf(query: SimulatedQuery): { schema: string; table: string } | undefined {
  if (query.kind !== 'etl') return undefined;
  const match = /^INSERT INTO (\w+)\.(\w+)/.exec(queryTextOf(query));
  return match ? { schema: match[1]!, table: match[2]! } : undefined;
}

export function lockWaitsAt(snapshots: readonly ClusterSnapshot[], at: number): LockWait[] {
  const waits: LockWait[] = [];
  for (const { cluster, tables } of snapshots) {
    const writers = new Map<string, { query: SimulatedQuery; schema: string; table: string }[]>();
    for (const query of queriesOverlapping(cluster, tables, at, at)) {
      const target = isExecutingAt(query, at) ? writeTargetOf(query) : undefined;
      if (!target) continue;
      const key = `${target.schema}.${target.table}`;
      writers.set(key, [...(writers.get(key) ?? []), { query, ...target }]);
    }
    for (const group of writers.values()) {
      if (group.length < 2) continue;
      group.sort((a, b) => a.query.execStartAt - b.query.execStartAt || a.query.queryId - b.query.queryId);
      const holder = group[0]!;
      for (const waiter of group.slice(1)) {
        waits.push({
          cluster_id: cluster.id,
          schema: waiter.schema,
          table_name: waiter.table,
          waiting_pid: pidOf(waiter.query),
          waiting_user: waiter.query.userName,
          requested_lock: WRITE_LOCK,
          waiting_seconds: Math.floor(at - waiter.query.execStartAt),
          waiting_query_text: queryTextOf(waiter.query),
          blocking_pid: pidOf(holder.query),
          blocking_user: holder.query.userName,
          held_lock: WRITE_LOCK,
          blocking_seconds: Math.floor(at - holder.query.execStartAt),
          blocking_query_text: queryTextOf(holder.query),
        });
      }
    }
  }
  return waits.sort((a, b) => b.waiting_seconds - a.waiting_seconds || a.waiting_pid - b.waiting_pid);
}

/** Seconds the leader spends committing a load: most take a second or two, a few much longer. */
function commitWorkSeconds(query: SimulatedQuery): number {
  const random = randomFrom(seedOf(query.clusterId, 'commit', query.queryId));
  return Math.min(45, Math.max(0.1, random.logNormal(1.2, 0.9)));
}

export interface CommitReplay {
  summaries: CommitSummary[];
  records: CommitRecord[];
}

/** Replays each cluster's commit queue over [from, at]: commits queued in the window and finished by `at`. */
export function commitsBetween(snapshots: readonly ClusterSnapshot[], from: number, at: number): CommitReplay {
  const summaries: CommitSummary[] = [];
  const records: CommitRecord[] = [];
  for (const { cluster, tables } of snapshots) {
    const loads = queriesOverlapping(cluster, tables, from - COMMIT_WARMUP_SECONDS, at)
      .filter((q) => q.kind === 'etl' && q.endAt >= from - COMMIT_WARMUP_SECONDS && q.endAt <= at)
      .sort((a, b) => a.endAt - b.endAt || a.queryId - b.queryId);
    const ends: number[] = [];
    let leaderFreeAt = -Infinity;
    const clusterRecords: CommitRecord[] = [];
    for (const load of loads) {
      const startWork = Math.max(load.endAt, leaderFreeAt);
      const end = startWork + commitWorkSeconds(load);
      // Queue length as stl_commit_stats counts it: commits ahead of this one not yet done.
      const queueLength = ends.filter((done) => done > load.endAt).length;
      ends.push(end);
      leaderFreeAt = end;
      if (load.endAt < from || end > at) continue;
      clusterRecords.push({
        cluster_id: cluster.id,
        xid: xidOf(load),
        user_name: load.userName,
        queued_at: iso(load.endAt),
        queue_seconds: roundTo(startWork - load.endAt, 3),
        commit_seconds: roundTo(end - startWork, 3),
        queue_length: queueLength,
      });
    }
    if (clusterRecords.length === 0) continue;
    const queue = clusterRecords.map((r) => r.queue_seconds ?? 0);
    const work = clusterRecords.map((r) => r.commit_seconds);
    summaries.push({
      cluster_id: cluster.id,
      commits: clusterRecords.length,
      avg_queue_seconds: roundTo(queue.reduce((a, b) => a + b, 0) / queue.length, 3),
      max_queue_seconds: Math.max(...queue),
      avg_commit_seconds: roundTo(work.reduce((a, b) => a + b, 0) / work.length, 3),
      max_commit_seconds: Math.max(...work),
      max_queue_length: Math.max(...clusterRecords.map((r) => r.queue_length ?? 0)),
    });
    records.push(...clusterRecords);
  }
  return { summaries, records };
}
