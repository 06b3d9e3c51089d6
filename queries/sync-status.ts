/**
 * The sync status object (SPEC.md "Sync job and sync status"): computed from the `sync_jobs` read
 * model and the schedule grid. GET /api/v1/sync/status answers it bare and the live stream sends it
 * as each `sync_update`'s data: one function, so the two are the same shape byte for byte. The
 * stream computes it once per environment per period for all its listeners.
 *
 * Top-level `status` is the sync service's: `running` while this instance's scheduler runs (whether
 * or not a job executes at that moment), `stopped` when it does not (SYNC_SCHEDULER=off, or shut
 * down). A job executing now shows as `running` on its own entry. A paused job has no `next_run`.
 */
import type { SyncStatus } from '../src/contract/sync.js';

export type { SyncStatus };
import { SYNC_JOB_DOC_NAMES } from './sync-job-names.js';
import { SYNC_JOBS_COLLECTION, syncJobDocId, type SyncJobDoc } from '../projections/sync.js';
import { SYNC_JOB_IDS, type SyncJobId } from '../src/events/sync-job.js';
import { intervalOf, nextRunAfter } from '../src/process/sync/schedule-grid.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export interface SyncScheduleSettings {
  intervals: Partial<Record<string, number>>;
  timeZone: string;
  now: () => Date;
}

export interface SyncStatusSettings extends SyncScheduleSettings {
  /** Whether this instance's scheduler runs now. */
  schedulerRunning: () => boolean;
}

export type JobState = 'active' | 'paused' | 'running';

export const jobStateOf = (doc: SyncJobDoc | undefined): JobState =>
  doc?.runningRunId ? 'running' : doc?.paused ? 'paused' : 'active';

export async function jobDocs(
  reader: ReadModelReader,
  tenantId: string,
  envId: string,
): Promise<Map<SyncJobId, SyncJobDoc>> {
  const docs = await reader.find<SyncJobDoc>(SYNC_JOBS_COLLECTION, { tenantId, envId });
  return new Map(
    docs.filter((doc) => doc.id === syncJobDocId(tenantId, envId, doc.jobId)).map((doc) => [doc.jobId, doc]),
  );
}

export async function syncStatus(
  reader: ReadModelReader,
  settings: SyncStatusSettings,
  tenantId: string,
  envId: string,
): Promise<SyncStatus> {
  const docs = await jobDocs(reader, tenantId, envId);
  const now = settings.now();
  const jobs = SYNC_JOB_IDS.map((jobId) => {
    const doc = docs.get(jobId);
    const state = jobStateOf(doc);
    const interval = intervalOf(settings.intervals, jobId);
    const last = doc?.lastRun ?? null;
    return {
      job_id: jobId,
      name: SYNC_JOB_DOC_NAMES[jobId],
      status: state,
      last_run: last ? last.startedAt : null,
      next_run: state === 'paused' ? null : nextRunAfter(now, interval, settings.timeZone).toISOString(),
      interval_seconds: interval,
      last_result: last
        ? {
            rows_extracted: last.result?.rows_extracted ?? 0,
            rows_upserted: last.result?.rows_upserted ?? 0,
            duration_ms: last.durationMs,
            status: last.status,
          }
        : null,
    };
  });
  const status: 'running' | 'stopped' = settings.schedulerRunning() ? 'running' : 'stopped';
  return { status, scheduler_timezone: settings.timeZone, jobs };
}
