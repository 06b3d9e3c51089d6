/**
 * Data sync command routes: POST /api/v1/sync/trigger, POST /sync/jobs/{job_id}/pause and
 * /resume, PUT /sync/jobs/{job_id}/alerting (the job's own heartbeat), DELETE /sync/history?older_than_days=N. A triggered run starts (an event) before the
 * answer; its extraction continues in the background and shows in status, history and the stream.
 * The decider is commands/sync-jobs.ts.
 */
import type { SyncJobAlerting, SyncJobState, SyncPurge, SyncTriggered } from '../src/contract/sync.js';
import Router from '@koa/router';
import { isDomainRejection, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { SYNC_JOB_IDS, type SyncJobId, type SyncJobTarget } from '../src/events/sync-job.js';
import { ok, okBare } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest } from '../src/http/problem.js';
import { setReadPosition } from '../src/http/read-position.js';
import { queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import { isSyncJobId, type SyncJobCommand } from './sync-jobs.js';
import { syncJobAlertingBodySchema, triggerBodySchema } from '../src/contract/bodies/sync.js';

/**
 * What the routes ask of the sync runner (src/process/sync/run-sync-job.ts). The composition root
 * passes it in, so command routes never import a process.
 */
export interface SyncRunControl {
  now(): Date;
  /** Starts a run (a DomainRejection when it cannot start); its extraction goes on in the background. */
  trigger(target: SyncJobTarget, actor: string): Promise<{ position: bigint | null }>;
  command(target: SyncJobTarget, command: SyncJobCommand, actor: string): Promise<{ position: bigint | null }>;
}

export interface SyncCommandDeps {
  runs: SyncRunControl;
  enroll: (tenantId: string, envId: string) => void;
  /** Whether an escalation policy of the tenant has this id (a job's heartbeat names one). */
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  /** History entries of a job that started before `before` and are finished (the purge's count). */
  countHistoryBefore: (tenantId: string, envId: string, jobId: SyncJobId, before: string) => Promise<number>;
}

const MAX_PURGE_DAYS = 36_500;

export function syncCommandRoutes(deps: SyncCommandDeps) {
  const router = new Router<AppState>();
  const targetOf = (ctx: { state: AppState }, jobId: SyncJobId) => {
    const { tenantId, envId } = ctx.state.principal;
    deps.enroll(tenantId, envId);
    return { tenantId, envId, jobId };
  };

  router.post('/sync/trigger', requires('sync:write'), async (ctx) => {
    const body = triggerBodySchema.parse(ctx.request.body ?? {});
    if (body.job_id !== undefined && !isSyncJobId(body.job_id)) throw rejectNotFound(`sync job ${body.job_id}`);
    const jobIds: SyncJobId[] = body.job_id !== undefined ? [body.job_id as SyncJobId] : [...SYNC_JOB_IDS];
    const triggered: SyncJobId[] = [];
    const skipped: string[] = [];
    for (const jobId of jobIds) {
      const target = targetOf(ctx, jobId);
      try {
        const started = await deps.runs.trigger(target, ctx.state.principal.userId);
        setReadPosition(ctx, started.position);
        triggered.push(jobId);
      } catch (error) {
        // One named job that cannot start is the answer (409); with `{}` it is skipped.
        if (body.job_id !== undefined || !isDomainRejection(error)) throw error;
        skipped.push(`${jobId} (${error.message.replace(/^sync job \S+ is /, '')})`);
      }
    }
    const message =
      triggered.length > 0
        ? `started ${triggered.join(', ')}${skipped.length > 0 ? `; skipped ${skipped.join(', ')}` : ''}`
        : `no job started; skipped ${skipped.join(', ')}`;
    const answer: SyncTriggered = { success: triggered.length > 0, triggered_jobs: triggered, message };
    okBare(ctx, answer, triggered.length > 0 ? 202 : 200);
  });

  for (const action of ['pause', 'resume'] as const) {
    router.post(`/sync/jobs/:job_id/${action}`, requires('sync:write'), async (ctx) => {
      const jobId = ctx.params.job_id!;
      if (!isSyncJobId(jobId)) throw rejectNotFound(`sync job ${jobId}`);
      const target = targetOf(ctx, jobId);
      const outcome = await deps.runs.command(
        target,
        { type: action === 'pause' ? 'PauseSyncJob' : 'ResumeSyncJob', ...target },
        ctx.state.principal.userId,
      );
      setReadPosition(ctx, outcome.position);
      const state: SyncJobState = { job_id: jobId, state: action === 'pause' ? 'paused' : 'active' };
      ok(ctx, state);
    });
  }

  // The job's own heartbeat: which policy is paged when it stops succeeding, after how many intervals.
  router.put('/sync/jobs/:job_id/alerting', requires('sync:write'), async (ctx) => {
    const jobId = ctx.params.job_id!;
    if (!isSyncJobId(jobId)) throw rejectNotFound(`sync job ${jobId}`);
    const body = syncJobAlertingBodySchema.parse(ctx.request.body ?? {});
    const target = targetOf(ctx, jobId);
    if (body.alert_policy_id !== null && !(await deps.policyExists(target.tenantId, body.alert_policy_id))) {
      const message = 'no escalation policy with this id in the tenant';
      throw badRequest(`alert_policy_id: ${message}`, [{ path: '/alert_policy_id', message }]);
    }
    const outcome = await deps.runs.command(
      target,
      {
        type: 'SetSyncJobAlerting',
        ...target,
        alertPolicyId: body.alert_policy_id,
        alertAfterMissedRuns: body.alert_after_missed_runs,
      },
      ctx.state.principal.userId,
    );
    setReadPosition(ctx, outcome.position);
    const answer: SyncJobAlerting = { job_id: jobId, ...body };
    ok(ctx, answer);
  });

  router.delete('/sync/history', requires('sync:write'), queryParameters(['older_than_days']), async (ctx) => {
    const raw = ctx.query.older_than_days;
    const days = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(days) || days < 1 || days > MAX_PURGE_DAYS) {
      throw badRequest(`older_than_days must be a whole number from 1 to ${MAX_PURGE_DAYS}`, [
        { path: '/older_than_days', message: 'must be a whole number ≥ 1' },
      ]);
    }
    const before = new Date(deps.runs.now().getTime() - days * 86_400_000).toISOString();
    let removed = 0;
    for (const jobId of SYNC_JOB_IDS) {
      const target = targetOf(ctx, jobId);
      const count = await deps.countHistoryBefore(target.tenantId, target.envId, jobId, before);
      if (count === 0) continue;
      const outcome = await deps.runs.command(
        target,
        { type: 'PurgeSyncHistory', ...target, olderThanDays: days, before, removed: count },
        ctx.state.principal.userId,
      );
      setReadPosition(ctx, outcome.position);
      removed += count;
    }
    const purged: SyncPurge = { removed, older_than_days: days, before };
    ok(ctx, purged);
  });
  return router;
}
