/**
 * Each data-sync job's own heartbeat (issue 38 §3): after every scheduler tick of a job, the
 * instance that owns it (the scheduler only calls this for owned jobs) reads the job from the sync
 * read model and opens its `platform` incident on the job's policy when it has not succeeded within
 * N of its intervals, or resolves it once the job succeeds again (also after a manual run). The
 * subject is `sync-job:<env>:<job>` in the job's tenant: one open incident per job, whoever checks.
 */
import { randomUUID } from 'node:crypto';
import { SYNC_JOBS_COLLECTION, syncJobDocId, type SyncJobDoc } from '../../../projections/sync.js';
import { DEFAULT_ALERT_AFTER_MISSED_RUNS, type SyncJobId, type SyncJobTarget } from '../../events/sync-job.js';
import type { ReadModelReader } from '../../readstore/port.js';
import { syncJobOverdue } from '../platform-causes.js';
import type { PlatformWatchMetrics } from '../platform-watch-metrics.js';
import type { SubjectIncidents } from '../subject-incidents.js';

export const SYNC_WATCH_ACTOR = 'system:platform-watch';

export const syncJobSubject = (envId: string, jobId: SyncJobId) => `sync-job:${envId}:${jobId}`;

export interface SyncJobWatchDeps {
  reader: ReadModelReader;
  incidents: Pick<SubjectIncidents, 'open' | 'resolve'>;
  now: () => Date;
  intervalSeconds: (jobId: SyncJobId) => number;
  /** The job's display name (the incident's title names it). */
  jobName: (jobId: SyncJobId) => string;
  /** The `sync_job` cause on /metrics. */
  metrics?: Pick<PlatformWatchMetrics, 'failing' | 'opened'>;
}

export type SyncJobWatchOutcome = 'opened' | 'open' | 'resolved' | 'ok';

export function createSyncJobWatch(deps: SyncJobWatchDeps) {
  // The jobs this instance found overdue at their last check (the gauge's count).
  const overdue = new Set<string>();
  const mark = (key: string, failing: boolean) => {
    if (failing) overdue.add(key);
    else overdue.delete(key);
    deps.metrics?.failing('sync_job', overdue.size);
  };
  return async function checkJob(target: SyncJobTarget): Promise<SyncJobWatchOutcome> {
    const { tenantId, envId, jobId } = target;
    const doc = await deps.reader.get<SyncJobDoc>(SYNC_JOBS_COLLECTION, syncJobDocId(tenantId, envId, jobId));
    if (!doc) return 'ok';
    const verdict = syncJobOverdue({
      name: deps.jobName(jobId),
      paused: doc.paused,
      alertPolicyId: doc.alertPolicyId ?? null,
      alertAfterMissedRuns: doc.alertAfterMissedRuns ?? DEFAULT_ALERT_AFTER_MISSED_RUNS,
      lastSucceededAt: doc.lastSucceededAt ?? null,
      alertingSince: doc.alertingSince ?? null,
      lastError: doc.lastRun?.status === 'failed' ? doc.lastRun.error : null,
      intervalMs: deps.intervalSeconds(jobId) * 1000,
      now: deps.now().getTime(),
    });
    const cause = { tenantId, actor: SYNC_WATCH_ACTOR, correlationId: randomUUID() };
    const subject = syncJobSubject(envId, jobId);
    mark(`${tenantId}:${subject}`, verdict !== null && verdict !== 'unwatched');
    if (verdict === null || verdict === 'unwatched') {
      const note = verdict === null ? 'the job succeeded again' : 'the job is paused or no longer watched';
      return (await deps.incidents.resolve(cause, subject, note)) ? 'resolved' : 'ok';
    }
    const outcome = await deps.incidents.open(cause, {
      source: 'platform',
      subject,
      title: verdict.title,
      detail: verdict.detail,
      severity: 'high',
      escalationPolicyId: doc.alertPolicyId!,
      envId,
      clusterId: null,
    });
    if (outcome.opened) deps.metrics?.opened('sync_job');
    return outcome.opened ? 'opened' : 'open';
  };
}

export type SyncJobWatch = ReturnType<typeof createSyncJobWatch>;
