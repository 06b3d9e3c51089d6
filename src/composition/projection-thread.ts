/**
 * The projection runner of the embedded stores, run in a worker thread
 * (projection-thread-worker.ts) so that read-model writes and their commits use the second core
 * instead of the event loop that serves HTTP. To the rest of the platform it is the same runner
 * as createProjectionRunner: `waitFor` gives read-your-writes (released by the thread's progress
 * reports), `status` is the thread's last report, and the IAM change stamps move (before the
 * waiters are released) when the thread reports an IAM commit. Only for SQLite log and SQLite read
 * models: EventStoreDB and MongoDB keep the in-process runner.
 */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Worker } from 'node:worker_threads';
import type { IamChangeStamps } from '../auth/iam-change-stamps.js';
import { commitNotices } from '../eventstore/sqlite-writer.js';
import { positionWaiters } from '../projection/position-waiters.js';
import type { RebuildProgress } from '../projection/rebuild.js';
import type { ProjectionRunner, ProjectionStatus } from '../projection/runner.js';
import { spawnWorker } from '../spawn-worker.js';
import type { FromProjectionThread, ProjectionThreadSetup, ToProjectionThread } from './projection-thread-protocol.js';

export interface ProjectionThreadOptions {
  eventsFile: string;
  readModelsFile: string;
  secrets: { key?: Buffer; previousKeys: readonly Buffer[] };
  secretsKeyFile: string;
  /** Names of the projections to run (their definitions come from read-models.ts in the thread). */
  projections: readonly { name: string; version: number }[];
  iamProjections: ReadonlySet<string>;
  stamps: IamChangeStamps;
  logLevel: string;
  logger: Logger;
}

export function projectionThread(options: ProjectionThreadOptions): ProjectionRunner {
  const waiters = positionWaiters();
  let status: ProjectionStatus[] = options.projections.map(({ name, version }) => ({ name, version, position: -1n, lag: 0 }));
  let worker: Worker | undefined;
  let stopping = false;
  let stopped: (() => void) | undefined;
  const rebuilds = new Map<number, { onProgress?: (progress: RebuildProgress) => void; resolve: (position: bigint) => void; reject: (error: Error) => void }>();
  let nextRebuild = 0;

  const failAll = (reason: string) => {
    status = status.map((s) => ({ ...s, failing: reason }));
    for (const rebuild of rebuilds.values()) rebuild.reject(new Error(reason));
    rebuilds.clear();
  };

  const onMessage = (message: FromProjectionThread) => {
    switch (message.kind) {
      case 'progress':
        // Stamps first: the response a released waiter sends must find the cached permissions stale.
        for (const tenantId of message.iamChanges) options.stamps.changed(tenantId ?? undefined);
        status = message.status;
        if (message.reached !== undefined) waiters.advance(message.reached);
        break;
      case 'rebuild-progress':
        rebuilds.get(message.id)?.onProgress?.(message.progress);
        break;
      case 'rebuilt':
        rebuilds.get(message.id)?.resolve(message.position);
        rebuilds.delete(message.id);
        break;
      case 'rebuild-failed':
        rebuilds.get(message.id)?.reject(new Error(message.error));
        rebuilds.delete(message.id);
        break;
      case 'stopped':
        stopped?.();
        break;
      default:
        break;
    }
  };

  const send = (message: ToProjectionThread) => worker?.postMessage(message);

  return {
    async start() {
      const commits = commitNotices(options.eventsFile);
      const setup: ProjectionThreadSetup = {
        eventsFile: resolve(options.eventsFile),
        readModelsFile: resolve(options.readModelsFile),
        secrets: { key: options.secrets.key, previousKeys: [...options.secrets.previousKeys] },
        secretsKeyFile: options.secretsKeyFile,
        projections: options.projections.map((p) => p.name),
        iamProjections: [...options.iamProjections],
        logLevel: options.logLevel,
        commits,
      };
      const thread = spawnWorker(import.meta.url, 'projection-thread-worker', { workerData: setup, transferList: [commits] });
      worker = thread;
      await new Promise<void>((started, failed) => {
        thread.on('message', (message: FromProjectionThread) => {
          if (message.kind === 'started') started();
          else if (message.kind === 'failed') failed(new Error(`the projection thread could not start: ${message.error}`));
          else onMessage(message);
        });
        thread.once('error', failed);
        thread.once('exit', (code) => failed(new Error(`the projection thread exited (${code}) while starting`)));
      });
      thread.on('error', (error) => {
        options.logger.error({ err: error }, 'the projection thread failed');
        failAll(`projection thread failed: ${error.message}`);
      });
      thread.on('exit', (code) => {
        if (stopping) return;
        options.logger.error({ code }, 'the projection thread exited');
        failAll(`projection thread exited (${code})`);
      });
      // The platform stops it explicitly; an idle thread must not keep the process alive.
      thread.unref();
    },

    async stop() {
      if (!worker || stopping) return;
      stopping = true;
      const thread = worker;
      const done = new Promise<void>((resolve) => {
        stopped = resolve;
        thread.once('exit', () => resolve());
      });
      // Unreferenced, the thread's answer would not keep this process waiting for it.
      thread.ref();
      send({ kind: 'stop' });
      await done;
      await thread.terminate();
      waiters.cancelAll();
    },

    waitFor(position: bigint, timeoutMs = 2000) {
      return waiters.waitFor(position, timeoutMs);
    },

    rebuild(name: string, onProgress?: (progress: RebuildProgress) => void) {
      if (!status.some((s) => s.name === name)) return Promise.reject(new Error(`unknown projection ${name}`));
      const id = nextRebuild++;
      worker?.ref();
      return new Promise<bigint>((resolve, reject) => {
        rebuilds.set(id, { onProgress, resolve, reject });
        send({ kind: 'rebuild', id, name });
      }).finally(() => {
        if (rebuilds.size === 0 && !stopping) worker?.unref();
      });
    },

    status() {
      return status;
    },
  };
}
