/**
 * The data-sync answers: the status, the jobs, a run, the purge, a trigger and a pause or resume.
 * Written once here: queries/sync*.ts and commands/sync-job-routes.ts are typed from them,
 * src/openapi/sync.ts documents them, the console imports their types.
 */
import { z } from 'zod';
import { instant, optionalText, resourceId } from './answer-pieces.js';
import { SYNC_JOB_IDS } from './vocabulary.js';

export const syncJobId = z.enum(SYNC_JOB_IDS);
const runStatus = z.enum(['running', 'success', 'failed']);

export const syncStatusSchema = z.object({
  status: z.enum(['running', 'stopped']).meta({
    description:
      "running while this instance's scheduler runs (whether or not a job executes now); stopped with SYNC_SCHEDULER=off",
  }),
  scheduler_timezone: z.string(),
  jobs: z.array(
    z.object({
      job_id: syncJobId,
      name: z.string(),
      status: z.enum(['active', 'paused', 'running']),
      last_run: instant.nullable(),
      next_run: instant.nullable().meta({ description: 'null while paused' }),
      interval_seconds: z.number().int(),
      last_result: z
        .object({
          rows_extracted: z.number().int(),
          rows_upserted: z.number().int(),
          duration_ms: z.number().int(),
          status: z.enum(['success', 'failed']),
        })
        .nullable(),
    }),
  ),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;
export type SyncJobStatus = SyncStatus['jobs'][number];

/** A job's own heartbeat (issue 38): not succeeding within N of its intervals pages the policy. */
const syncJobAlertingFields = {
  alert_policy_id: resourceId
    .nullable()
    .meta({ description: 'the escalation policy paged when the job stops succeeding; null: not watched' }),
  alert_after_missed_runs: z
    .number()
    .int()
    .meta({ description: 'how many of its intervals the job may go without a success before it pages' }),
};

/** PUT /sync/jobs/{job_id}/alerting. */
export const syncJobAlertingSchema = z.object({ job_id: syncJobId, ...syncJobAlertingFields });
export type SyncJobAlerting = z.infer<typeof syncJobAlertingSchema>;

export const syncJobSchema = z.object({
  job_id: syncJobId,
  name: z.string(),
  description: z.string(),
  target_table: z.string(),
  incremental: z.boolean(),
  interval_seconds: z.number().int(),
  state: z.enum(['active', 'paused', 'running']),
  next_run: instant.nullable(),
  high_water: optionalText,
  ...syncJobAlertingFields,
});
export type SyncJob = z.infer<typeof syncJobSchema>;

export const syncRunSchema = z.object({
  log_id: z.string(),
  job_id: syncJobId,
  status: runStatus,
  trigger: z.enum(['schedule', 'manual']),
  started_at: instant,
  finished_at: instant.nullable(),
  rows_extracted: z.number().int().nullable(),
  rows_upserted: z.number().int().nullable(),
  duration_ms: z.number().nullable(),
  high_water: optionalText,
  error: optionalText,
});
export type SyncRun = z.infer<typeof syncRunSchema>;

/** DELETE /sync/history: how many runs were removed, and from before when. */
export const syncPurgeSchema = z.object({
  removed: z.number().int(),
  older_than_days: z.number().int(),
  before: instant,
});
export type SyncPurge = z.infer<typeof syncPurgeSchema>;

/** POST /sync/trigger (bare): which jobs started. */
export const syncTriggeredSchema = z.object({
  success: z.boolean(),
  triggered_jobs: z.array(syncJobId),
  message: z.string(),
});
export type SyncTriggered = z.infer<typeof syncTriggeredSchema>;

/** POST /sync/jobs/{job_id}/pause and /resume. */
export const syncJobStateSchema = z.object({ job_id: syncJobId, state: z.enum(['paused', 'active']) });
export type SyncJobState = z.infer<typeof syncJobStateSchema>;
