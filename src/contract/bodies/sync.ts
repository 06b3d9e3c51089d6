/** What clients send to the sync commands (commands/sync-job-routes.ts parses with it). */
import { z } from 'zod';

/** POST /api/v1/sync/trigger: `{}` = every active job, `{job_id}` = one. */
export const triggerBodySchema = z.strictObject({ job_id: z.string().min(1).max(100).optional() });

/** How many missed runs page when a job names no count of its own. */
export const DEFAULT_ALERT_AFTER_MISSED_RUNS = 3;

/** PUT /api/v1/sync/jobs/{job_id}/alerting: the job's own heartbeat (null policy: not watched). */
export const syncJobAlertingBodySchema = z.strictObject({
  alert_policy_id: z.uuid().nullable(),
  alert_after_missed_runs: z.number().int().min(1).max(1000).default(DEFAULT_ALERT_AFTER_MISSED_RUNS),
});
