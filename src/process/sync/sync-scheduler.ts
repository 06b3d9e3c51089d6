/**
 * The sync scheduler: one timer, set for the earliest due job of every enrolled environment; when
 * it fires, every due job of every environment starts (runSyncJob: an instance that loses the
 * start race runs nothing). Timers and the clock are injected, so tests drive it in virtual time.
 * An environment is enrolled at start-up from the sync read model and on its first sync request.
 */
import { SYNC_JOB_IDS, type SyncJobId } from '../../events/sync-job.js';
import { intervalOf, nextRunAfter } from './schedule-grid.js';
import { runSyncJob, type SyncRunnerDeps } from './run-sync-job.js';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SyncSchedulerOptions {
  runner: SyncRunnerDeps;
  intervals: Partial<Record<string, number>>;
  timeZone: string;
  now: () => Date;
  timers?: Timers;
  /** Whether a job is paused now (read model); paused jobs are skipped, not started. */
  isPaused: (tenantId: string, envId: string, jobId: SyncJobId) => Promise<boolean>;
  /**
   * Whether this instance starts the job's scheduled runs (syncJobShareKey; default: every job).
   * In a cluster one member owns each job; the start race stays the safety net while the members
   * change. Manual triggers run wherever they are asked.
   */
  owns?: (shareKey: string) => boolean;
  onError?: (error: unknown) => void;
  /**
   * After each owned due job's turn (run, skipped as paused, or refused as running elsewhere): the
   * owner's tick of the job's heartbeat (sync-job-watch.ts). Its failures go to onError.
   */
  afterTurn?: (target: { tenantId: string; envId: string; jobId: SyncJobId }) => Promise<unknown>;
}

/** What the cluster splits scheduled sync runs by. */
export const syncJobShareKey = (tenantId: string, envId: string, jobId: SyncJobId) =>
  `sync:${tenantId}:${envId}:${jobId}`;

export interface SyncScheduler {
  enroll(tenantId: string, envId: string): void;
  start(): void;
  stop(): Promise<void>;
  /** Between start() and stop(): the sync status answers `running`. */
  isRunning(): boolean;
  /** Runs in flight (tests wait on it). */
  idle(): Promise<void>;
  /** How many enrolled jobs this instance owns now. */
  ownedJobs(): number;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createSyncScheduler(options: SyncSchedulerOptions): SyncScheduler {
  const timers = options.timers ?? realTimers;
  const environments = new Map<string, { tenantId: string; envId: string }>();
  const nextRuns = new Map<string, Date>();
  const inFlight = new Set<Promise<unknown>>();
  let handle: unknown;
  let running = false;

  const keyOf = (tenantId: string, envId: string, jobId: SyncJobId) => `${tenantId}:${envId}:${jobId}`;

  function arm() {
    if (!running) return;
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
    const earliest = Math.min(...[...nextRuns.values()].map((date) => date.getTime()));
    if (!Number.isFinite(earliest)) return;
    handle = timers.setTimeout(fire, Math.max(0, earliest - options.now().getTime()));
  }

  function fire() {
    handle = undefined;
    const now = options.now();
    for (const { tenantId, envId } of environments.values()) {
      for (const jobId of SYNC_JOB_IDS) {
        const key = keyOf(tenantId, envId, jobId);
        const due = nextRuns.get(key);
        if (!due || due > now) continue;
        nextRuns.set(key, nextRunAfter(now, intervalOf(options.intervals, jobId), options.timeZone));
        if (options.owns && !options.owns(syncJobShareKey(tenantId, envId, jobId))) continue;
        const run: Promise<unknown> = options
          .isPaused(tenantId, envId, jobId)
          .then((paused) => (paused ? null : runSyncJob(options.runner, { tenantId, envId, jobId }, 'schedule')))
          .catch((error: unknown) => options.onError?.(error))
          .then(() => options.afterTurn?.({ tenantId, envId, jobId }))
          .catch((error: unknown) => options.onError?.(error));
        inFlight.add(run);
        void run.finally(() => inFlight.delete(run));
      }
    }
    arm();
  }

  return {
    enroll(tenantId, envId) {
      const key = `${tenantId}:${envId}`;
      if (environments.has(key)) return;
      environments.set(key, { tenantId, envId });
      for (const jobId of SYNC_JOB_IDS) {
        nextRuns.set(
          keyOf(tenantId, envId, jobId),
          nextRunAfter(options.now(), intervalOf(options.intervals, jobId), options.timeZone),
        );
      }
      arm();
    },
    start() {
      running = true;
      arm();
    },
    async stop() {
      running = false;
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = undefined;
      await Promise.allSettled([...inFlight]);
    },
    isRunning: () => running,
    ownedJobs: () =>
      [...environments.values()].reduce(
        (count, { tenantId, envId }) =>
          count +
          SYNC_JOB_IDS.filter((jobId) => !options.owns || options.owns(syncJobShareKey(tenantId, envId, jobId))).length,
        0,
      ),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
