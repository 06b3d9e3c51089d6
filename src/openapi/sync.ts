/** Data sync: status, jobs, history, the live status stream and the job controls (queries/sync*.ts, commands/sync-job-routes.ts). */
import { z } from 'zod';
import { triggerBodySchema } from '../../commands/sync-jobs.js';
import { syncHistoryQuery } from '../../queries/sync.js';
import { SYNC_JOB_IDS } from '../events/sync-job.js';
import type { OperationDoc } from './operation.js';
import { instant, optionalText } from './shared-schemas.js';

const tag = 'Data sync';
const jobId = z.enum(SYNC_JOB_IDS);
const runStatus = z.enum(['running', 'success', 'failed']);

export const syncStatusSchema = z.object({
  status: z.enum(['running', 'stopped']).meta({
    description:
      "running while this instance's scheduler runs (whether or not a job executes now); stopped with SYNC_SCHEDULER=off",
  }),
  scheduler_timezone: z.string(),
  jobs: z.array(
    z.object({
      job_id: jobId,
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

const jobSchema = z.object({
  job_id: jobId,
  name: z.string(),
  description: z.string(),
  target_table: z.string(),
  incremental: z.boolean(),
  interval_seconds: z.number().int(),
  state: z.enum(['active', 'paused', 'running']),
  next_run: instant.nullable(),
  high_water: optionalText,
});

export const syncRunSchema = z.object({
  log_id: z.string(),
  job_id: jobId,
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

export const syncOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/sync/status',
    tag,
    summary: "Sync status of the token's environment",
    response: {
      kind: 'envelope',
      bare: true,
      status: 200,
      description: "Every job's state, last run and next run (SPEC.md's top-level fields, no envelope)",
      data: syncStatusSchema,
    },
  },
  {
    method: 'get',
    path: '/sync/jobs',
    tag,
    summary: 'The sync jobs',
    response: { kind: 'envelope', status: 200, description: 'Every job', data: z.array(jobSchema) },
  },
  {
    method: 'get',
    path: '/sync/history',
    tag,
    summary: 'Sync runs, newest first',
    query: syncHistoryQuery.shape,
    response: { kind: 'envelope', status: 200, description: 'A page of runs', data: syncRunSchema, list: true },
  },
  {
    method: 'get',
    path: '/sync/history/:log_id',
    tag,
    summary: 'One sync run',
    response: { kind: 'envelope', status: 200, description: 'The run', data: syncRunSchema },
  },
  {
    method: 'delete',
    path: '/sync/history',
    tag,
    summary: 'Purge sync history older than some days',
    query: { older_than_days: z.coerce.number().int().min(1).meta({ description: 'required: whole days' }) },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'How many runs were removed',
      data: z.object({ removed: z.number().int(), older_than_days: z.number().int(), before: instant }),
    },
  },
  {
    method: 'get',
    path: '/sync/stream',
    tag,
    summary: 'Live sync status',
    description: 'No polling: the status once at connect, then every SYNC_STREAM_PERIOD_SECONDS.',
    query: { ticket: z.string().meta({ description: 'a stream ticket instead of the Authorization header' }) },
    problems: { 429: 'SYNC_STREAMS_PER_TENANT streams of the tenant are open already' },
    response: {
      kind: 'event-stream',
      description: 'Server-sent events',
      events:
        '`event: sync_update`, `data:` the sync status object (as GET /api/v1/sync/status answers); heartbeat comments in between.',
    },
  },
  {
    method: 'post',
    path: '/sync/trigger',
    tag,
    summary: 'Run one job (`job_id`) or every job now',
    body: triggerBodySchema,
    bodyOptional: true,
    problems: { 404: 'No such sync job (`job_id`)', 409: 'The named job cannot start (running or paused)' },
    response: {
      kind: 'envelope',
      bare: true,
      status: 202,
      alsoStatus: 200,
      description:
        "202 when a job started, 200 when none could (`success` false); SPEC.md's top-level fields, no envelope",
      data: z.object({ success: z.boolean(), triggered_jobs: z.array(jobId), message: z.string() }),
    },
  },
  ...(['pause', 'resume'] as const).map(
    (action): OperationDoc => ({
      method: 'post',
      path: `/sync/jobs/:job_id/${action}`,
      tag,
      summary: `${action === 'pause' ? 'Pause' : 'Resume'} a sync job`,
      problems: {
        404: 'No such sync job',
        409: `The job is already ${action === 'pause' ? 'paused' : 'active'} (\`job_status\`)`,
      },
      response: {
        kind: 'envelope',
        status: 200,
        etag: false,
        description: "The job's state",
        data: z.object({ job_id: jobId, state: z.enum(['paused', 'active']) }),
      },
    }),
  ),
];
