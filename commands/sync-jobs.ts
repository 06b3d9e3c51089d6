/**
 * Data sync jobs: the decider (the trigger body is src/contract/bodies/sync.ts). Pause and resume come from the API; start,
 * finish and interrupted come from the sync runner (src/process/sync/). The model is
 * src/events/sync-job.ts; the routes are commands/sync-job-routes.ts.
 */
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict } from '../src/commanding/domain-rejection.js';
import {
  DEFAULT_ALERT_AFTER_MISSED_RUNS,
  evolveSyncJob,
  initialSyncJobState,
  INTERRUPTED,
  runIsAbandoned,
  SYNC_JOB_IDS,
  type SyncJobEvent,
  type SyncJobId,
  type SyncJobState,
  type SyncRunResult,
} from '../src/events/sync-job.js';

export const isSyncJobId = (value: string): value is SyncJobId => (SYNC_JOB_IDS as readonly string[]).includes(value);

interface JobRef {
  envId: string;
  jobId: SyncJobId;
}

export type SyncJobCommand =
  | ({ type: 'PauseSyncJob' } & JobRef)
  | ({ type: 'ResumeSyncJob' } & JobRef)
  | ({ type: 'SetSyncJobAlerting'; alertPolicyId: string | null; alertAfterMissedRuns: number } & JobRef)
  | ({
      type: 'StartSyncRun';
      runId: string;
      trigger: 'schedule' | 'manual';
      instanceId: string;
      staleAfter: string;
    } & JobRef)
  | ({
      type: 'FinishSyncRun';
      runId: string;
      outcome:
        | { status: 'succeeded'; result: SyncRunResult }
        | { status: 'failed'; error: string; duration_ms: number };
    } & JobRef)
  | ({ type: 'MarkInterruptedRun'; instanceId: string } & JobRef)
  | ({ type: 'PurgeSyncHistory'; olderThanDays: number; before: string; removed: number } & JobRef);

function interrupted(running: NonNullable<SyncJobState['running']>, ref: JobRef, now: Date): SyncJobEvent {
  const duration = Math.max(0, now.getTime() - Date.parse(running.startedAt));
  return {
    type: 'SyncRunFailed',
    data: { ...ref, runId: running.runId, finishedAt: now.toISOString(), duration_ms: duration, error: INTERRUPTED },
  };
}

export const syncJobDecider: Decider<SyncJobState, SyncJobCommand, SyncJobEvent> = {
  initialState: initialSyncJobState,
  evolve: evolveSyncJob,
  decide(command, state, context) {
    const ref = { envId: command.envId, jobId: command.jobId };
    const at = context.now.toISOString();
    switch (command.type) {
      case 'PauseSyncJob':
        if (state.paused) throw rejectConflict(`sync job ${command.jobId} is already paused`, { job_status: 'paused' });
        return [{ type: 'SyncJobPaused', data: ref }];
      case 'ResumeSyncJob':
        if (!state.paused)
          throw rejectConflict(`sync job ${command.jobId} is already active`, { job_status: 'active' });
        return [{ type: 'SyncJobResumed', data: ref }];
      case 'SetSyncJobAlerting': {
        const current = state.alerting ?? {
          alertPolicyId: null,
          alertAfterMissedRuns: DEFAULT_ALERT_AFTER_MISSED_RUNS,
        };
        if (
          current.alertPolicyId === command.alertPolicyId &&
          current.alertAfterMissedRuns === command.alertAfterMissedRuns
        )
          return [];
        return [
          {
            type: 'SyncJobAlertingSet',
            data: {
              ...ref,
              alertPolicyId: command.alertPolicyId,
              alertAfterMissedRuns: command.alertAfterMissedRuns,
              at,
            },
          },
        ];
      }
      case 'StartSyncRun': {
        if (state.paused)
          throw rejectConflict(`sync job ${command.jobId} is paused: resume it first`, { job_status: 'paused' });
        // A run past its staleAfter is taken for dead: it fails (interrupted) and the new run starts.
        const stale =
          state.running &&
          state.running.staleAfter !== undefined &&
          context.now.getTime() >= Date.parse(state.running.staleAfter);
        if (state.running && !stale)
          throw rejectConflict(`sync job ${command.jobId} is already running`, {
            job_status: 'running',
            run_id: state.running.runId,
          });
        const started: SyncJobEvent = {
          type: 'SyncRunStarted',
          data: {
            ...ref,
            runId: command.runId,
            trigger: command.trigger,
            startedAt: at,
            instanceId: command.instanceId,
            staleAfter: command.staleAfter,
          },
        };
        return state.running ? [interrupted(state.running, ref, context.now), started] : [started];
      }
      case 'FinishSyncRun':
        if (state.running?.runId !== command.runId)
          throw rejectConflict(`run ${command.runId} of sync job ${command.jobId} is not running`);
        return command.outcome.status === 'succeeded'
          ? [
              {
                type: 'SyncRunSucceeded',
                data: { ...ref, runId: command.runId, finishedAt: at, ...command.outcome.result },
              },
            ]
          : [
              {
                type: 'SyncRunFailed',
                data: {
                  ...ref,
                  runId: command.runId,
                  finishedAt: at,
                  duration_ms: command.outcome.duration_ms,
                  error: command.outcome.error,
                },
              },
            ];
      case 'MarkInterruptedRun':
        if (!state.running || !runIsAbandoned(state.running, command.instanceId, context.now)) return [];
        return [interrupted(state.running, ref, context.now)];
      case 'PurgeSyncHistory':
        return [
          {
            type: 'SyncHistoryPurged',
            data: { ...ref, older_than_days: command.olderThanDays, before: command.before, removed: command.removed },
          },
        ];
    }
  },
};
