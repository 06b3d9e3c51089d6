/** What clients send to the sync commands (commands/sync-job-routes.ts parses with it). */
import { z } from 'zod';

/** POST /api/v1/sync/trigger: `{}` = every active job, `{job_id}` = one. */
export const triggerBodySchema = z.strictObject({ job_id: z.string().min(1).max(100).optional() });
