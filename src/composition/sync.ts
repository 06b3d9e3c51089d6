/**
 * Composition of data sync: the relational store (PostgreSQL server or embedded), the runner over
 * the warehouse port, the scheduler, the read model, the routes and the live stream.
 */
import type { Registry } from 'prom-client';
import { syncCommandRoutes } from '../../commands/sync-job-routes.js';
import { SYNC_HISTORY, SYNC_JOBS_COLLECTION, syncJobDocId, type SyncJobDoc } from '../../projections/sync.js';
import { syncQueryRoutes } from '../../queries/sync.js';
import { syncStreamRoutes } from '../../queries/sync-stream.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { Config } from '../config.js';
import type { WarehouseGateway } from '../gateways/warehouse/port.js';
import type { Logger } from 'pino';
import {
  executeSyncRun,
  markInterruptedRun,
  startSyncRun,
  syncCommand,
  type SyncRunnerDeps,
} from '../process/sync/run-sync-job.js';
import { syncMetrics } from '../process/sync/sync-metrics.js';
import { createSyncScheduler, type Timers } from '../process/sync/sync-scheduler.js';
import { createSyncJobWatch, type SyncJobWatch } from '../process/sync/sync-job-watch.js';
import { intervalOf } from '../process/sync/schedule-grid.js';
import type { PlatformWatchMetrics } from '../process/platform-watch-metrics.js';
import type { SubjectIncidents } from '../process/subject-incidents.js';
import { SYNC_JOB_DOC_NAMES } from '../../queries/sync-job-names.js';
import type { ReadModelReader } from '../readstore/port.js';
import { lazySyncStore } from '../syncstore/lazy.js';
import { openSyncStore } from '../syncstore/open.js';
import type { SyncStore } from '../syncstore/store.js';
import type { Membership } from '../cluster/membership.js';
import type { PlatformArea } from './area.js';

export interface SyncComposition extends PlatformArea {
  store: SyncStore;
  /** The job's own heartbeat check (what each scheduler tick of an owned job runs). */
  checkJob: SyncJobWatch;
  /** How many enrolled jobs' scheduled runs this instance starts. */
  ownedJobs(): number;
  feeds(): { listeners: number; computations: number }[];
  /** For /health: resolves when the relational store answers (or the embedded one is still opening). */
  check(): Promise<{ kind: string; status?: 'not_opened' | 'opening'; state?: 'not_opened' | 'opening' }>;
}

export function composeSync(deps: {
  config: Config;
  commandDeps: CommandDeps;
  reader: ReadModelReader;
  warehouse: WarehouseGateway;
  logger: Logger;
  registry: Registry;
  timers?: Timers;
  /** The cluster's members: which jobs' scheduled runs this instance starts; its name marks its runs. */
  membership: Membership;
  /** Whether an escalation policy of the tenant has this id (a job's heartbeat names one). */
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  /** Where the jobs' own heartbeats open and resolve their incidents. */
  incidents: SubjectIncidents;
  watchMetrics: PlatformWatchMetrics;
}): SyncComposition {
  const { config, commandDeps, reader, logger } = deps;
  const store = lazySyncStore(config.sync.databaseUrl ? 'postgresql' : 'embedded', () =>
    openSyncStore({
      databaseUrl: config.sync.databaseUrl,
      dataDir: config.dataDir,
      templateDir: config.sync.embeddedTemplateDir,
    }),
  );
  const runner: SyncRunnerDeps = {
    commandDeps,
    warehouse: deps.warehouse,
    store,
    onFinished: syncMetrics(deps.registry, commandDeps.now),
    instanceId: deps.membership.self,
    runTimeoutMs: config.sync.runTimeoutMs,
  };
  // Each job's own heartbeat, checked after every tick of the job by its owner and after a manual run.
  const checkJob = createSyncJobWatch({
    reader,
    incidents: deps.incidents,
    now: commandDeps.now,
    intervalSeconds: (jobId) => intervalOf(config.sync.intervals, jobId),
    jobName: (jobId) => SYNC_JOB_DOC_NAMES[jobId],
    metrics: deps.watchMetrics,
  });
  const settings = { intervals: config.sync.intervals, timeZone: config.sync.timeZone, now: commandDeps.now };
  const scheduler = createSyncScheduler({
    ...settings,
    runner,
    timers: deps.timers,
    owns: (key) => deps.membership.owns(key),
    isPaused: async (tenantId, envId, jobId) =>
      (await reader.get<SyncJobDoc>(SYNC_JOBS_COLLECTION, syncJobDocId(tenantId, envId, jobId)))?.paused ?? false,
    onError: (error) => logger.error({ err: error }, 'sync run could not be recorded'),
    afterTurn: checkJob,
  });
  const enroll = (tenantId: string, envId: string) => scheduler.enroll(tenantId, envId);
  const statusSettings = { ...settings, schedulerRunning: () => scheduler.isRunning() };
  const triggered = new Set<Promise<unknown>>();
  const track = (run: Promise<unknown>) => {
    triggered.add(run);
    void run
      .catch((error: unknown) => logger.error({ err: error }, 'triggered sync run could not be recorded'))
      .finally(() => triggered.delete(run));
  };
  const stream = syncStreamRoutes({
    ...statusSettings,
    reader,
    heartbeatMs: config.sseHeartbeatMs,
    periodMs: config.sync.streamPeriodMs,
    caps: config.sync.streams,
    enroll,
  });

  return {
    store,
    checkJob,
    ownedJobs: () => scheduler.ownedJobs(),
    feeds: stream.feeds,
    check: async () => {
      // The embedded store runs in this process and cannot be unreachable. Not yet used, it is not
      // opened for a health check (it costs hundreds of MiB); while it compiles its WebAssembly
      // (seconds, longer on a busy machine) it is opening, not down; a failed open is down.
      if (store.kind === 'embedded' && store.state() !== 'open') {
        if (store.state() === 'failed') {
          const failed = store.lastFailure();
          throw failed instanceof Error ? failed : new Error(String(failed));
        }
        const state = store.state() === 'opening' ? 'opening' : 'not_opened';
        // Not pinged, so not `up`: /health says what it verified.
        return { status: state, kind: store.kind, state };
      }
      await store.ping();
      return { kind: store.kind };
    },
    routes: [
      { alias: false, routes: () => syncQueryRoutes({ ...statusSettings, reader, enroll }) },
      { alias: false, routes: () => stream.router },
      {
        alias: false,
        routes: () =>
          syncCommandRoutes({
            enroll,
            runs: {
              now: () => runner.commandDeps.now(),
              async trigger(target, actor) {
                const started = await startSyncRun(runner, target, 'manual', actor);
                track(executeSyncRun(runner, target, started.runId, started.state).then(() => checkJob(target)));
                return started;
              },
              command: (target, command, actor) => syncCommand(runner, target, command, actor),
            },
            policyExists: deps.policyExists,
            countHistoryBefore: (tenantId, envId, jobId, before) =>
              reader.count(SYNC_HISTORY, {
                tenantId,
                envId,
                jobId,
                startedAt: { $lt: before },
                status: { $ne: 'running' },
              }),
          }),
      },
    ],
    processes: [
      {
        start() {
          // Runs this instance's previous process left "running" (or any run past its staleAfter) fail
          // as interrupted; another live instance's run is left alone. Environments are scheduled again.
          void (async () => {
            const jobs = await reader.find<SyncJobDoc>(SYNC_JOBS_COLLECTION, {});
            for (const job of jobs) {
              if (job.runningRunId) await markInterruptedRun(runner, job);
              enroll(job.tenantId, job.envId);
            }
            // The store is not opened here: the embedded PostgreSQL costs about 740 MiB of RSS
            // (measured with `npm start`: 1,002 MiB against 265), so it opens on first use.
            if (config.sync.scheduler) scheduler.start();
          })().catch((error: unknown) => logger.error({ err: error }, 'sync start-up failed'));
        },
        async stop() {
          stream.stop();
          await scheduler.stop();
          await Promise.allSettled([...triggered]);
          await store.close();
        },
      },
    ],
  };
}
