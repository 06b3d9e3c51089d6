/**
 * The projections' part of /health: down while any projection is failing or stopped (the log
 * subscription ended), or while a read model is more than `maxLag` events behind the log's head
 * (its answers are that stale). Each reason names its projection. A projection whose new version
 * is being built beside it is not counted behind: its previous version answers until the switch.
 *
 * The distance is counted in events, not as a difference of positions: EventStoreDB's positions are
 * byte offsets in its transaction log, so "1,000 positions" would be one or two events there, and
 * a cluster instance a few writes behind another would drop out of its load balancer.
 */
import type { ProjectionStatus } from './runner.js';

/** `eventsBehind`: events between a projection's position and the head, counted up to maxLag + 1. */
export function projectionProblems(
  statuses: readonly ProjectionStatus[],
  eventsBehind: (position: bigint) => number,
  maxLag: number,
): string[] {
  const problems: string[] = [];
  for (const status of statuses) {
    if (status.failing) problems.push(`${status.name} is failing: ${status.failing}`);
    // Its previous version answers, as it stood, until the new one is switched in: taking the
    // instance out of its load balancer for that would take reads down (docs/operations.md).
    else if (status.building) continue;
    else if (eventsBehind(status.position) > maxLag) {
      problems.push(`${status.name} is more than ${maxLag} events behind the log`);
    }
  }
  return problems;
}

/** A health check over the runner's status and the log: rejects naming every problem. */
export function projectionsHealthCheck(deps: {
  status: () => readonly ProjectionStatus[];
  headPosition: () => Promise<bigint>;
  /** User events after `after`, at most `maxCount` of them (the log's readAll). */
  readAll: (options: { after: bigint; maxCount: number }) => Promise<readonly unknown[]>;
  maxLag: number;
}) {
  return async () => {
    const head = await deps.headPosition();
    const statuses = deps.status();
    // Caught up (the usual case) costs nothing; behind, one bounded read per distinct position.
    const behind = new Map<bigint, number>();
    const lagging = statuses.filter((s) => !s.failing && !s.building && s.position < head);
    for (const position of new Set(lagging.map((s) => s.position))) {
      behind.set(position, (await deps.readAll({ after: position, maxCount: deps.maxLag + 1 })).length);
    }
    const problems = projectionProblems(statuses, (position) => behind.get(position) ?? 0, deps.maxLag);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return { head: String(head) };
  };
}
