/**
 * Read models of data sync: `sync_jobs` (one document per job of an environment: paused, running,
 * last run, high-water mark) and `sync_history` (one document per run). Both are folds of the
 * per-job streams (src/events/sync-job.ts); a purge removes history documents older than its cutoff.
 * A finished run's status is SPEC.md's `success` or `failed` (the events say SyncRunSucceeded /
 * SyncRunFailed; the value is the read model's, so no stored event changes). Version 2: `success`
 * instead of `succeeded`, and the last run keeps its duration when it failed. Version 3: the job's
 * heartbeat settings and when it last succeeded.
 */
import type { SyncJobId, SyncRunResult } from '../src/events/sync-job.js';
import type { Projection } from '../src/projection-runner/projection.js';

export const SYNC_JOBS_COLLECTION = 'sync_jobs';
export const SYNC_HISTORY = 'sync_history';

export interface SyncJobDoc {
  id: string;
  tenantId: string;
  envId: string;
  jobId: SyncJobId;
  paused: boolean;
  runningRunId: string | null;
  lastRun: {
    runId: string;
    startedAt: string;
    finishedAt: string;
    status: SyncRunStatus;
    result: SyncRunResult | null;
    error: string | null;
    /** The run's own duration, failed or not (the history entry's `duration_ms`). */
    durationMs: number;
  } | null;
  highWater: string | null;
  /** The job's own heartbeat (SyncJobAlertingSet); absent on jobs never configured. */
  alertPolicyId?: string | null;
  alertAfterMissedRuns?: number;
  /** When the heartbeat was last set: a job that never succeeded counts its missed runs from here. */
  alertingSince?: string | null;
  /** When the job last succeeded (absent: never, or not since version 3 of this read model). */
  lastSucceededAt?: string | null;
  [field: string]: unknown;
}

export interface SyncHistoryDoc {
  id: string;
  tenantId: string;
  envId: string;
  jobId: SyncJobId;
  trigger: 'schedule' | 'manual';
  status: 'running' | SyncRunStatus;
  startedAt: string;
  finishedAt: string | null;
  rows_extracted: number | null;
  rows_upserted: number | null;
  duration_ms: number | null;
  high_water: string | null;
  error: string | null;
  [field: string]: unknown;
}

/** How a finished run ended (SPEC.md: `success` seen). */
export type SyncRunStatus = 'success' | 'failed';

export const syncJobDocId = (tenantId: string, envId: string, jobId: string) => `${tenantId}:${envId}:${jobId}`;

export const syncProjection: Projection = {
  name: 'sync',
  version: 3,
  handles: [
    'SyncJobPaused',
    'SyncJobResumed',
    'SyncJobAlertingSet',
    'SyncRunStarted',
    'SyncRunSucceeded',
    'SyncRunFailed',
    'SyncHistoryPurged',
  ],
  collections: {
    [SYNC_JOBS_COLLECTION]: [{ name: 'tenant_env', fields: ['tenantId', 'envId', 'jobId'] }],
    [SYNC_HISTORY]: [{ name: 'tenant_env_started', fields: ['tenantId', 'envId', 'startedAt', 'id'] }],
  },
  async apply(event, writer) {
    const tenantId = event.metadata.tenantId;
    const data = event.data as Record<string, unknown> & { envId: string; jobId: SyncJobId };
    const id = syncJobDocId(tenantId, data.envId, data.jobId);
    const job: SyncJobDoc = (await writer.get<SyncJobDoc>(SYNC_JOBS_COLLECTION, id)) ?? {
      id,
      tenantId,
      envId: data.envId,
      jobId: data.jobId,
      paused: false,
      runningRunId: null,
      lastRun: null,
      highWater: null,
    };
    const runId = String(data.runId ?? '');
    switch (event.type) {
      case 'SyncJobPaused':
      case 'SyncJobResumed':
        await writer.upsert(SYNC_JOBS_COLLECTION, { ...job, paused: event.type === 'SyncJobPaused' });
        return;
      case 'SyncJobAlertingSet':
        await writer.upsert(SYNC_JOBS_COLLECTION, {
          ...job,
          alertPolicyId: (data.alertPolicyId as string | null) ?? null,
          alertAfterMissedRuns: Number(data.alertAfterMissedRuns),
          alertingSince: String(data.at),
        });
        return;
      case 'SyncRunStarted':
        await writer.upsert(SYNC_JOBS_COLLECTION, { ...job, runningRunId: runId });
        await writer.upsert(SYNC_HISTORY, {
          id: runId,
          tenantId,
          envId: data.envId,
          jobId: data.jobId,
          trigger: data.trigger as SyncHistoryDoc['trigger'],
          status: 'running',
          startedAt: String(data.startedAt),
          finishedAt: null,
          rows_extracted: null,
          rows_upserted: null,
          duration_ms: null,
          high_water: null,
          error: null,
        } satisfies SyncHistoryDoc);
        return;
      case 'SyncRunSucceeded':
      case 'SyncRunFailed': {
        const succeeded = event.type === 'SyncRunSucceeded';
        const entry = await writer.get<SyncHistoryDoc>(SYNC_HISTORY, runId);
        const result = succeeded
          ? {
              rows_extracted: Number(data.rows_extracted),
              rows_upserted: Number(data.rows_upserted),
              duration_ms: Number(data.duration_ms),
              high_water: (data.high_water as string | null) ?? null,
            }
          : null;
        const finishedAt = String(data.finishedAt);
        const error = succeeded ? null : String(data.error);
        const status: SyncRunStatus = succeeded ? 'success' : 'failed';
        const durationMs = Number(data.duration_ms);
        if (entry) {
          await writer.upsert(SYNC_HISTORY, {
            ...entry,
            status,
            finishedAt,
            error,
            rows_extracted: result?.rows_extracted ?? 0,
            rows_upserted: result?.rows_upserted ?? 0,
            duration_ms: durationMs,
            high_water: result?.high_water ?? null,
          });
        }
        await writer.upsert(SYNC_JOBS_COLLECTION, {
          ...job,
          runningRunId: null,
          highWater: result?.high_water ?? job.highWater,
          lastSucceededAt: succeeded ? finishedAt : (job.lastSucceededAt ?? null),
          lastRun: { runId, startedAt: entry?.startedAt ?? finishedAt, finishedAt, status, result, error, durationMs },
        } satisfies SyncJobDoc);
        return;
      }
      case 'SyncHistoryPurged':
        await writer.deleteMany(SYNC_HISTORY, {
          tenantId,
          envId: data.envId,
          jobId: data.jobId,
          startedAt: { $lt: String(data.before) },
          status: { $ne: 'running' },
        });
        return;
    }
  },
};
