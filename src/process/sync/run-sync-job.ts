/**
 * One run of one sync job: start (an append at the revision read, so a racing scheduler or a
 * second instance gets a conflict and runs nothing), extract page by page through the warehouse
 * port, upsert each page in batches, finish with the counts and the new high-water mark. A failure
 * anywhere after the start is recorded as a failed run with the error; the job keeps its schedule.
 */
import { randomUUID } from 'node:crypto';
import { syncJobDecider, type SyncJobCommand } from '../../../commands/sync-jobs.js';
import { handleCommand, type CommandDeps } from '../../commanding/command-handler.js';
import { syncJobStream, type SyncJobId, type SyncJobState, type SyncJobTarget } from '../../events/sync-job.js';
import type { WarehouseGateway } from '../../gateways/warehouse/port.js';
import type { SyncStore } from '../../syncstore/store.js';
import { SYNC_JOBS } from './jobs.js';

export const SYNC_ACTOR = 'system:sync';

/**
 * Past its timeout a run stops at the next page; this much later any instance may take it for
 * dead (a page in flight at the timeout still finishes, and clocks of instances differ a little).
 */
export const TAKEOVER_GRACE_MS = 5 * 60_000;

export interface SyncRunnerDeps {
  commandDeps: CommandDeps;
  warehouse: WarehouseGateway;
  store: SyncStore;
  /** This instance (stable per DATA_DIR): recorded on each run it starts. */
  instanceId: string;
  /** A run gives up (failed, "timed out") once it has run this long; checked between pages. */
  runTimeoutMs: number;
  /** Observes every finished run (metrics). */
  onFinished?: (jobId: SyncJobId, outcome: RunOutcome) => void;
}

export type { SyncJobTarget };

export type RunOutcome =
  | {
      status: 'succeeded';
      runId: string;
      rows_extracted: number;
      rows_upserted: number;
      duration_ms: number;
      high_water: string | null;
    }
  | { status: 'failed'; runId: string; error: string; duration_ms: number };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

export async function syncCommand(
  deps: Pick<SyncRunnerDeps, 'commandDeps'>,
  target: SyncJobTarget,
  command: SyncJobCommand,
  actor = SYNC_ACTOR,
  retriesOnConflict?: number,
) {
  return handleCommand(deps.commandDeps, syncJobDecider, {
    stream: syncJobStream(target.tenantId, target.envId, target.jobId),
    resourceName: `sync job ${target.jobId}`,
    command,
    envelope: { tenantId: target.tenantId, actor, correlationId: randomUUID(), causationId: randomUUID() },
    retriesOnConflict,
  });
}

/**
 * Starts a run; throws a DomainRejection (conflict) when the job is paused, already running, or
 * another instance started it first. Answers the started run's id and the state it started from.
 */
export async function startSyncRun(
  deps: Pick<SyncRunnerDeps, 'commandDeps' | 'instanceId' | 'runTimeoutMs'>,
  target: SyncJobTarget,
  trigger: 'schedule' | 'manual',
  actor = SYNC_ACTOR,
) {
  const runId = randomUUID();
  const staleAfter = new Date(deps.commandDeps.now().getTime() + deps.runTimeoutMs + TAKEOVER_GRACE_MS).toISOString();
  // No retry: a conflicting append means someone else started (or paused) the job meanwhile.
  const outcome = await syncCommand(
    deps,
    target,
    { type: 'StartSyncRun', ...target, runId, trigger, instanceId: deps.instanceId, staleAfter },
    actor,
    0,
  );
  return { runId, state: outcome.state, position: outcome.position };
}

/** Extracts, upserts and records the result of a started run. Never throws for a job failure. */
export async function executeSyncRun(
  deps: SyncRunnerDeps,
  target: SyncJobTarget,
  runId: string,
  state: SyncJobState,
): Promise<RunOutcome> {
  const job = SYNC_JOBS[target.jobId];
  const now = deps.commandDeps.now();
  const began = Date.now();
  let outcome: RunOutcome;
  try {
    let extracted = 0;
    let upserted = 0;
    const deadline = now.getTime() + deps.runTimeoutMs;
    for await (const page of job.extract({
      warehouse: deps.warehouse,
      envId: target.envId,
      now,
      highWater: state.highWater,
    })) {
      if (deps.commandDeps.now().getTime() > deadline)
        throw new Error(`timed out: the run passed its limit of ${Math.round(deps.runTimeoutMs / 1000)} s`);
      extracted += page.length;
      upserted += await deps.store.upsert(job.table, page);
    }
    const highWater = job.incremental ? now.toISOString() : null;
    outcome = {
      status: 'succeeded',
      runId,
      rows_extracted: extracted,
      rows_upserted: upserted,
      duration_ms: Date.now() - began,
      high_water: highWater,
    };
    const { status: _s, runId: _r, ...result } = outcome;
    await syncCommand(deps, target, {
      type: 'FinishSyncRun',
      ...target,
      runId,
      outcome: { status: 'succeeded', result },
    });
  } catch (error) {
    outcome = { status: 'failed', runId, error: errorText(error), duration_ms: Date.now() - began };
    await syncCommand(deps, target, {
      type: 'FinishSyncRun',
      ...target,
      runId,
      outcome: { status: 'failed', error: outcome.error, duration_ms: outcome.duration_ms },
    });
  }
  deps.onFinished?.(target.jobId, outcome);
  return outcome;
}

/** Start and execute; answers null when the run could not start (paused, running elsewhere). */
export async function runSyncJob(
  deps: SyncRunnerDeps,
  target: SyncJobTarget,
  trigger: 'schedule' | 'manual',
): Promise<RunOutcome | null> {
  let started;
  try {
    started = await startSyncRun(deps, target, trigger);
  } catch (error) {
    if (error instanceof Error && error.name === 'DomainRejection') return null;
    throw error;
  }
  return executeSyncRun(deps, target, started.runId, started.state);
}

/**
 * At start-up: a run this instance's previous process left "running", or any run past its
 * staleAfter, is failed with reason `interrupted`; another live instance's run is left alone.
 */
export async function markInterruptedRun(
  deps: Pick<SyncRunnerDeps, 'commandDeps' | 'instanceId'>,
  target: SyncJobTarget,
): Promise<boolean> {
  const outcome = await syncCommand(deps, target, {
    type: 'MarkInterruptedRun',
    ...target,
    instanceId: deps.instanceId,
  });
  return outcome.events.length > 0;
}
