/** Data sync: status, jobs, history, the live status stream and the job controls (queries/sync*.ts, commands/sync-job-routes.ts). */
import { z } from 'zod';
import { syncJobAlertingBodySchema, triggerBodySchema } from '../contract/bodies/sync.js';
import { syncHistoryQuery } from '../../queries/sync.js';
import {
  syncJobAlertingSchema,
  syncJobSchema,
  syncJobStateSchema,
  syncPurgeSchema,
  syncRunSchema,
  syncStatusSchema,
  syncTriggeredSchema,
} from '../contract/sync.js';
import type { OperationDoc } from './operation.js';

const tag = 'Data sync';
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
    response: { kind: 'envelope', status: 200, description: 'Every job', data: z.array(syncJobSchema) },
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
      data: syncPurgeSchema,
    },
  },
  {
    method: 'get',
    path: '/sync/stream',
    tag,
    summary: 'Live sync status',
    description: 'No polling: the status once at connect, then every SYNC_STREAM_PERIOD_SECONDS.',
    query: { ticket: z.string().meta({ description: 'a stream ticket instead of the Authorization header' }) },
    problems: {
      429: 'The caller already holds SYNC_STREAMS_PER_USER streams, or the tenant SYNC_STREAMS_PER_TENANT; the detail and `cap` (`per_user`, `per_tenant`) say which',
    },
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
      data: syncTriggeredSchema,
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
        data: syncJobStateSchema,
      },
    }),
  ),
  {
    method: 'put',
    path: '/sync/jobs/:job_id/alerting',
    tag,
    summary: "Set a sync job's own heartbeat",
    description:
      'A job that has not succeeded within `alert_after_missed_runs` of its intervals opens a `platform` incident on ' +
      '`alert_policy_id` (subject `sync-job:<job_id>`, the last error as its detail); the next success resolves it. ' +
      'A paused job is not watched. `alert_policy_id` null stops the watch.',
    body: syncJobAlertingBodySchema,
    problems: { 400: 'No escalation policy with this id in the tenant', 404: 'No such sync job' },
    response: {
      kind: 'envelope',
      status: 200,
      etag: false,
      description: "The job's heartbeat settings",
      data: syncJobAlertingSchema,
    },
  },
];
