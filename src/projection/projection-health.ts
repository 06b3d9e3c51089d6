/**
 * The projections' part of /health: down while any projection is failing or stopped (the log
 * subscription ended), or while a read model is more than `maxLag` positions behind the log's head
 * (its answers are that stale). Each reason names its projection.
 */
import type { ProjectionStatus } from './runner.js';

export function projectionProblems(statuses: readonly ProjectionStatus[], head: bigint, maxLag: number): string[] {
  const problems: string[] = [];
  for (const status of statuses) {
    if (status.failing) problems.push(`${status.name} is failing: ${status.failing}`);
    else if (head - status.position > BigInt(maxLag)) {
      problems.push(`${status.name} is ${head - status.position} positions behind the log (bound ${maxLag})`);
    }
  }
  return problems;
}

/** A health check over the runner's status and the log's head: rejects naming every problem. */
export function projectionsHealthCheck(deps: { status: () => readonly ProjectionStatus[]; headPosition: () => Promise<bigint>; maxLag: number }) {
  return async () => {
    const head = await deps.headPosition();
    const problems = projectionProblems(deps.status(), head, deps.maxLag);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return { head: String(head) };
  };
}
