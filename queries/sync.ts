/**
 * Data sync, read side: GET /api/v1/sync/status, /sync/jobs, /sync/history (filters job_id, from,
 * to, status; cursor pages, newest first) and /sync/history/{log_id}. Scoped to the token's
 * tenant and environment. The status answers SPEC.md's top-level fields bare; the rest keep the
 * platform envelope.
 */
import type { SyncJob, SyncJobAlerting, SyncRun } from '../src/contract/sync.js';
import Router from '@koa/router';
import { z } from 'zod';
import { SYNC_HISTORY, type SyncHistoryDoc, type SyncJobDoc } from '../projections/sync.js';
import { DEFAULT_ALERT_AFTER_MISSED_RUNS, SYNC_JOB_IDS } from '../src/events/sync-job.js';
import { apiInstant } from '../src/contract/api-instant.js';
import { ok, okBare, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { listParameters, queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import { SYNC_JOBS } from '../src/process/sync/jobs.js';
import { intervalOf, nextRunAfter } from '../src/process/sync/schedule-grid.js';
import type { Filter, RangeCondition, ReadModelReader } from '../src/readstore/port.js';
import { SYNC_JOB_DOC_NAMES } from './sync-job-names.js';
import { jobDocs, jobStateOf, syncStatus, type SyncStatusSettings } from './sync-status.js';

export const historyView = (doc: SyncHistoryDoc): SyncRun => ({
  log_id: doc.id,
  job_id: doc.jobId,
  status: doc.status,
  trigger: doc.trigger,
  started_at: doc.startedAt,
  finished_at: doc.finishedAt,
  rows_extracted: doc.rows_extracted,
  rows_upserted: doc.rows_upserted,
  duration_ms: doc.duration_ms,
  high_water: doc.high_water,
  error: doc.error,
});

const instant = apiInstant;
export const syncHistoryQuery = z.object({
  job_id: z.enum(SYNC_JOB_IDS).optional(),
  from: instant.optional(),
  to: instant.optional(),
  // `succeeded`, the value before SPEC.md's `success`, is accepted for one release (README: deprecations).
  status: z
    .enum(['running', 'success', 'failed', 'succeeded'])
    .meta({ description: '`succeeded` is a deprecated alias of `success`, accepted for one release' })
    .transform((status) => (status === 'succeeded' ? 'success' : status))
    .optional(),
});

/** The problem names the offending parameter, like a body field. */
function parseHistoryQuery(query: Record<string, unknown>) {
  const parsed = syncHistoryQuery.safeParse(query);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message }));
    throw badRequest(`invalid query parameter ${errors.map((e) => e.path.slice(1)).join(', ')}`, errors);
  }
  if (parsed.data.from && parsed.data.to && Date.parse(parsed.data.to) <= Date.parse(parsed.data.from)) {
    throw badRequest('to must be after from', [{ path: '/to', message: 'must be after from' }]);
  }
  return parsed.data;
}

export interface SyncQueryDeps extends SyncStatusSettings {
  reader: ReadModelReader;
  /** Called on every sync request: the environment's jobs join the scheduler. */
  enroll: (tenantId: string, envId: string) => void;
}

export function syncQueryRoutes(deps: SyncQueryDeps) {
  const router = new Router<AppState>();
  const scope = (ctx: { state: AppState }) => {
    const { tenantId, envId } = ctx.state.principal;
    deps.enroll(tenantId, envId);
    return { tenantId, envId };
  };

  router.get('/sync/status', requires('sync:read'), queryParameters([]), async (ctx) => {
    const { tenantId, envId } = scope(ctx);
    okBare(ctx, await syncStatus(deps.reader, deps, tenantId, envId));
  });

  router.get('/sync/jobs', requires('sync:read'), queryParameters([]), async (ctx) => {
    const { tenantId, envId } = scope(ctx);
    const docs = await jobDocs(deps.reader, tenantId, envId);
    const now = deps.now();
    ok(
      ctx,
      SYNC_JOB_IDS.map((jobId): SyncJob => {
        const doc = docs.get(jobId);
        const interval = intervalOf(deps.intervals, jobId);
        const state = jobStateOf(doc);
        return {
          job_id: jobId,
          name: SYNC_JOB_DOC_NAMES[jobId],
          description: SYNC_JOBS[jobId].description,
          target_table: SYNC_JOBS[jobId].table,
          incremental: SYNC_JOBS[jobId].incremental,
          interval_seconds: interval,
          state,
          next_run: state === 'paused' ? null : nextRunAfter(now, interval, deps.timeZone).toISOString(),
          high_water: doc?.highWater ?? null,
          ...syncJobAlertingView(doc),
        };
      }),
    );
  });

  router.get(
    '/sync/history',
    requires('sync:read'),
    listParameters(['job_id', 'from', 'to', 'status']),
    async (ctx) => {
      const { tenantId, envId } = scope(ctx);
      const query = parseHistoryQuery(ctx.query);
      const startedAt: RangeCondition = {};
      if (query.from) startedAt.$gte = new Date(query.from).toISOString();
      if (query.to) startedAt.$lt = new Date(query.to).toISOString();
      const filter: Filter = { tenantId, envId };
      if (query.job_id) filter.jobId = query.job_id;
      if (query.status) filter.status = query.status;
      if (query.from || query.to) filter.startedAt = startedAt;
      const { items, page } = await readPage<SyncHistoryDoc>(
        deps.reader,
        SYNC_HISTORY,
        filter,
        [['startedAt', 'desc']],
        pageRequest(ctx),
      );
      okPage(ctx, items.map(historyView), page);
    },
  );

  router.get('/sync/history/:log_id', requires('sync:read'), queryParameters([]), async (ctx) => {
    const { tenantId, envId } = scope(ctx);
    const doc = await deps.reader.get<SyncHistoryDoc>(SYNC_HISTORY, ctx.params.log_id!);
    if (!doc || doc.tenantId !== tenantId || doc.envId !== envId) throw notFound('sync log entry');
    ok(ctx, historyView(doc));
  });
  return router;
}

/** A job's heartbeat settings as answers show them (a job never configured: not watched). */
export const syncJobAlertingView = (doc: SyncJobDoc | undefined | null): Omit<SyncJobAlerting, 'job_id'> => ({
  alert_policy_id: doc?.alertPolicyId ?? null,
  alert_after_missed_runs: doc?.alertAfterMissedRuns ?? DEFAULT_ALERT_AFTER_MISSED_RUNS,
});
