import { USER_WORKLOAD_CAP, type QueueWaitStats, type UserWorkload } from '../../diagnostics.js';
import { roundTo } from '../../table-health.js';
import type { SimulatedQuery } from '../workload.js';

/** Per-queue and per-user figures of simulated queries, as the Redshift statements aggregate them. */

const seconds = (value: number) => roundTo(value, 3);

/** Queries submitted in [from, at], per cluster and queue; a query still queued counts its wait so far. */
export function queueWaitStats(queries: readonly SimulatedQuery[], from: number, at: number): QueueWaitStats[] {
  const byQueue = new Map<string, { stats: QueueWaitStats; execTotal: number }>();
  for (const q of queries) {
    if (q.submittedAt < from || q.submittedAt > at) continue;
    const key = `${q.clusterId}\u0000${q.queue}`;
    const entry = byQueue.get(key) ?? {
      stats: {
        cluster_id: q.clusterId,
        queue: q.queue,
        queries: 0,
        queued_queries: 0,
        avg_queue_seconds: 0,
        max_queue_seconds: 0,
        total_queue_seconds: 0,
        avg_exec_seconds: 0,
      },
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
}

/** Finished queries per cluster and user, most execution time first. */
export function userWorkloadStats(finished: readonly SimulatedQuery[]): UserWorkload[] {
  const byUser = new Map<string, UserWorkload>();
  for (const q of finished) {
    const key = `${q.clusterId}\u0000${q.userName}`;
    const user = byUser.get(key) ?? {
      cluster_id: q.clusterId,
      user_name: q.userName,
      queries: 0,
      total_exec_seconds: 0,
      avg_exec_seconds: 0,
      max_exec_seconds: 0,
      total_queue_seconds: 0,
      avg_queue_seconds: 0,
      spill_mb: 0,
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
}
