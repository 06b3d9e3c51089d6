/**
 * When the platform's own parts page (issue 38 §3): pure decisions, one per cause, each answering
 * whether the cause is failing now and what its incident says. The watch (platform-watch.ts) asks
 * them on every check and opens or resolves the cause's `platform` incident accordingly; the sync
 * jobs' heartbeat (sync-job-watch.ts) asks `syncJobOverdue` after every scheduler tick.
 */

/** What a cause's incident says, or null when the cause is not failing. */
export interface CauseVerdict {
  title: string;
  detail: string | null;
}

/** How many missed evaluator intervals page (the "not ticking for 3 intervals"). */
export const EVALUATOR_MISSED_TICKS = 3;

/**
 * The evaluator is stalled when no tick has completed for `missed` intervals: since its last
 * completed tick, or since the watch started when none has. A tick that throws does not count, so
 * an evaluator whose every tick fails pages like one that stopped.
 */
export function evaluatorStalled(input: {
  lastTickAt: number | null;
  watchStartedAt: number;
  intervalMs: number;
  now: number;
  missed?: number;
}): CauseVerdict | null {
  const missed = input.missed ?? EVALUATOR_MISSED_TICKS;
  const since = input.lastTickAt ?? input.watchStartedAt;
  if (input.now - since < missed * input.intervalMs) return null;
  const last = input.lastTickAt === null ? 'none since start-up' : new Date(input.lastTickAt).toISOString();
  return {
    title: `The alert evaluator has not ticked for ${missed} intervals`,
    detail: `last completed tick: ${last}; interval ${Math.round(input.intervalMs / 1000)} s; no rule is evaluated meanwhile`,
  };
}

/** A projection as the runner reports it (src/projection-runner status()). */
export interface ProjectionStatus {
  name: string;
  position: bigint;
  lag: number;
  failing?: string;
}

/** What the watch remembers of a projection between checks: where it was, and since when. */
export interface ProjectionTrack {
  position: bigint;
  /** When it last moved, or last had nothing to do (lag 0). */
  progressAt: number;
}

/** The track after this check: progress (a new position, or no lag) restarts the clock. */
export function trackProjection(previous: ProjectionTrack | undefined, status: ProjectionStatus, now: number) {
  if (!previous || status.position !== previous.position || status.lag === 0)
    return { position: status.position, progressAt: now };
  return previous;
}

/**
 * A projection pages when it reports a failure, or when it has events to apply (lag > 0) and has
 * not moved for `stuckAfterMs`. A projection that is behind but moving is catching up, not stuck.
 */
export function projectionVerdict(
  status: ProjectionStatus,
  track: ProjectionTrack,
  now: number,
  stuckAfterMs: number,
): CauseVerdict | null {
  if (status.failing)
    return { title: `Projection ${status.name} is failing`, detail: `${status.failing} (lag ${status.lag} events)` };
  if (status.lag > 0 && now - track.progressAt >= stuckAfterMs)
    return {
      title: `Projection ${status.name} is stuck`,
      detail: `${status.lag} events behind, no progress since ${new Date(track.progressAt).toISOString()}; its read model is stale`,
    };
  return null;
}

/** A refusal of the event store (src/eventstore/append-refusals.ts). */
export interface AppendRefusalSnapshot {
  since: Date;
  error: string;
  refused: number;
}

/**
 * The event store refusing appends. Its incident needs an append, so it cannot open while the
 * refusal lasts: the watch keeps the refusal (`unreported`) until an incident telling of it is
 * open. Failing while refusing (the open is tried and refused, counted on /metrics) and while a
 * refusal is unreported; clear once the refusal is over and told.
 */
export function eventStoreVerdict(
  current: AppendRefusalSnapshot | undefined,
  unreported: AppendRefusalSnapshot | undefined,
): CauseVerdict | null {
  const refusal = current ?? unreported;
  if (!refusal) return null;
  const state = current ? 'refuses appends' : 'refused appends';
  return {
    title: `The event store ${state}`,
    detail: `since ${refusal.since.toISOString()}, ${refusal.refused} refused; the last: ${refusal.error}`,
  };
}

/** A sync job as its heartbeat sees it (the sync read model). */
export interface SyncJobWatchInput {
  name: string;
  paused: boolean;
  alertPolicyId: string | null;
  alertAfterMissedRuns: number;
  lastSucceededAt: string | null;
  /** When its heartbeat was set: a job that never succeeded counts from here. */
  alertingSince: string | null;
  lastError: string | null;
  intervalMs: number;
  now: number;
}

/**
 * A watched job pages when it has not succeeded within N of its intervals: N intervals since the
 * later of its last success and when its heartbeat was set, less half an interval, so the check
 * after the N-th missed run (runs are on the interval's grid, a little after the moment counted
 * from) already sees it. Paused or unwatched jobs never page (`unwatched` resolves an open one).
 */
export function syncJobOverdue(job: SyncJobWatchInput): CauseVerdict | 'unwatched' | null {
  if (!job.alertPolicyId || job.paused) return 'unwatched';
  const since = Math.max(
    job.lastSucceededAt ? Date.parse(job.lastSucceededAt) : 0,
    job.alertingSince ? Date.parse(job.alertingSince) : 0,
  );
  if (since === 0) return null;
  const n = job.alertAfterMissedRuns;
  if (job.now - since < (n - 0.5) * job.intervalMs) return null;
  return {
    title: `${job.name} has not succeeded for ${n} runs`,
    detail: job.lastError ?? `no run has finished since ${new Date(since).toISOString()}`,
  };
}
