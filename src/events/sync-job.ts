/**
 * Data sync jobs, the model: events of the per-job streams `sync-job-<tenant>-<env>-<job>`, the
 * job as it stands, and how events change it. A run starts with an append at the revision the
 * starter read, so of two schedulers racing on one job exactly one run starts (the other's append
 * fails with a wrong expected revision). Field names of results are the API's (snake_case).
 */
import { z } from 'zod';

/** The built-in jobs (src/contract/vocabulary.ts): each copies one warehouse source into the table of the same name. */
import { SYNC_JOB_IDS, type SyncJobId } from '../contract/vocabulary.js';

export { SYNC_JOB_IDS, type SyncJobId };

/** One environment's sync job: the stream a sync command goes to. */
export interface SyncJobTarget {
  tenantId: string;
  envId: string;
  jobId: SyncJobId;
}

const jobRef = { envId: z.string().min(1), jobId: z.enum(SYNC_JOB_IDS) };

export const syncJobEvents = {
  SyncJobPaused: z.object(jobRef),
  SyncJobResumed: z.object(jobRef),
  /**
   * The job's own heartbeat: not succeeding within `alertAfterMissedRuns` of its intervals opens an
   * incident on `alertPolicyId` (null: not watched). `at` starts the count of a job never succeeded.
   */
  SyncJobAlertingSet: z.object({
    ...jobRef,
    alertPolicyId: z.uuid().nullable(),
    alertAfterMissedRuns: z.number().int().min(1).max(1000),
    at: z.string(),
  }),
  SyncRunStarted: z.object({
    ...jobRef,
    runId: z.uuid(),
    trigger: z.enum(['schedule', 'manual']),
    startedAt: z.string(),
    /** The instance running it (stable per DATA_DIR); absent on runs recorded before instances were named. */
    instanceId: z.string().min(1).optional(),
    /**
     * When the run may be taken for dead by any instance: its start plus the run timeout (the
     * runner gives up by then) plus a grace. Absent on older runs.
     */
    staleAfter: z.string().optional(),
  }),
  SyncRunSucceeded: z.object({
    ...jobRef,
    runId: z.uuid(),
    finishedAt: z.string(),
    rows_extracted: z.number().int().min(0),
    rows_upserted: z.number().int().min(0),
    duration_ms: z.number().int().min(0),
    /** Where the next incremental run resumes (ISO time of the newest source row); null: full copy. */
    high_water: z.string().nullable(),
  }),
  SyncRunFailed: z.object({
    ...jobRef,
    runId: z.uuid(),
    finishedAt: z.string(),
    duration_ms: z.number().int().min(0),
    error: z.string(),
  }),
  /** History entries that started before `before` are gone from the history read model. */
  SyncHistoryPurged: z.object({
    ...jobRef,
    older_than_days: z.number().int().min(1),
    before: z.string(),
    removed: z.number().int().min(0),
  }),
};

type Data<K extends keyof typeof syncJobEvents> = z.infer<(typeof syncJobEvents)[K]>;
export type SyncJobEvent = {
  [K in keyof typeof syncJobEvents]: { type: K; data: Data<K> };
}[keyof typeof syncJobEvents];
export type SyncRunResult = Omit<Data<'SyncRunSucceeded'>, 'envId' | 'jobId' | 'runId' | 'finishedAt'>;

export const syncJobStream = (tenantId: string, envId: string, jobId: SyncJobId) =>
  `sync-job-${tenantId}-${envId}-${jobId}`;

/** Why a run left running by a crashed instance failed (the history's `error`). */
export const INTERRUPTED = 'interrupted';

/**
 * Whether `instanceId` may declare the running run dead: it is its own (it just started, so the
 * run died with its previous process), the run predates named instances, or the run is past its
 * staleAfter (the instance running it gave up or died). Another instance's live run is left alone.
 */
export function runIsAbandoned(running: NonNullable<SyncJobState['running']>, instanceId: string, now: Date): boolean {
  if (running.instanceId === undefined || running.instanceId === instanceId) return true;
  return running.staleAfter !== undefined && now.getTime() >= Date.parse(running.staleAfter);
}

/** How many missed intervals page when a job names a policy but not a count. */
export { DEFAULT_ALERT_AFTER_MISSED_RUNS } from '../contract/bodies/sync.js';

export interface SyncJobState {
  paused: boolean;
  alerting?: { alertPolicyId: string | null; alertAfterMissedRuns: number };
  /** The run in progress, if any. */
  running?: { runId: string; startedAt: string; instanceId?: string; staleAfter?: string };
  lastRun?: {
    runId: string;
    startedAt: string;
    finishedAt: string;
    status: 'succeeded' | 'failed';
    result?: SyncRunResult;
    error?: string;
  };
  /** From the last successful run; null or absent: the next run copies everything the source offers. */
  highWater: string | null;
}

export const initialSyncJobState = (): SyncJobState => ({ paused: false, highWater: null });

export function evolveSyncJob(state: SyncJobState, event: SyncJobEvent): SyncJobState {
  switch (event.type) {
    case 'SyncJobPaused':
      return { ...state, paused: true };
    case 'SyncJobResumed':
      return { ...state, paused: false };
    case 'SyncJobAlertingSet':
      return {
        ...state,
        alerting: { alertPolicyId: event.data.alertPolicyId, alertAfterMissedRuns: event.data.alertAfterMissedRuns },
      };
    case 'SyncRunStarted':
      return {
        ...state,
        running: {
          runId: event.data.runId,
          startedAt: event.data.startedAt,
          ...(event.data.instanceId ? { instanceId: event.data.instanceId } : {}),
          ...(event.data.staleAfter ? { staleAfter: event.data.staleAfter } : {}),
        },
      };
    case 'SyncRunSucceeded': {
      const { envId: _env, jobId: _job, runId, finishedAt, ...result } = event.data;
      return {
        ...state,
        running: undefined,
        highWater: result.high_water ?? state.highWater,
        lastRun: { runId, startedAt: state.running?.startedAt ?? finishedAt, finishedAt, status: 'succeeded', result },
      };
    }
    case 'SyncRunFailed':
      return {
        ...state,
        running: undefined,
        lastRun: {
          runId: event.data.runId,
          startedAt: state.running?.startedAt ?? event.data.finishedAt,
          finishedAt: event.data.finishedAt,
          status: 'failed',
          error: event.data.error,
        },
      };
    case 'SyncHistoryPurged':
      return state;
  }
}
