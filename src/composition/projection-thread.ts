/**
 * The projection runner of the embedded stores, run on the event log's writer thread
 * (projection-host.ts), right after the commits it applies, so that read-model writes and their
 * commits use the second core instead of the event loop that serves HTTP. (A thread of its own was
 * measured first: on a loaded machine its extra wake-up per commit cost more than it freed; see
 * bench/README.md.) To the rest of the platform it is the same runner as createProjectionRunner:
 * `waitFor` gives read-your-writes (released by the host's progress reports), `status` is the
 * host's last report, and the IAM change stamps move and the alert rules' change feed is told
 * (before the waiters are released) when it reports an IAM or alertRules commit. Only for SQLite log and SQLite read models: EventStoreDB and MongoDB keep
 * the in-process runner.
 */
import { extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { IamChangeStamps } from '../auth/iam-change-stamps.js';
import { hostOnWriterThread } from '../eventstore/sqlite-writer.js';
import { positionWaiters } from '../projection-runner/position-waiters.js';
import type { RebuildProgress } from '../projection-runner/rebuild.js';
import type { DocChanges } from '../readstore/doc-changes.js';
import type { ProjectionRunner, ProjectionStatus } from '../projection-runner/runner.js';
import type { FromProjectionThread, ProjectionThreadSetup, ToProjectionThread } from './projection-thread-protocol.js';

export interface ProjectionThreadOptions {
  eventsFile: string;
  readModelsFile: string;
  secrets: { key?: Buffer; previousKeys: readonly Buffer[] };
  secretsKeyFile: string;
  /** The projections to run, by name (the writer thread builds them from read-models.ts). */
  projections: readonly { name: string; version: number }[];
  iamProjections: ReadonlySet<string>;
  stamps: IamChangeStamps;
  /** Told which alert rules a commit changed (src/readstore/doc-changes.ts). */
  onRuleChanges?: (changes: DocChanges) => void;
  logLevel: string;
  logger: Logger;
}

export function projectionThread(options: ProjectionThreadOptions): ProjectionRunner {
  const waiters = positionWaiters();
  let status: ProjectionStatus[] = options.projections.map(({ name, version }) => ({
    name,
    version,
    position: -1n,
    lag: 0,
  }));
  let port: MessagePort | undefined;
  let stopping = false;
  let stopped: (() => void) | undefined;
  const rebuilds = new Map<
    number,
    {
      onProgress?: (progress: RebuildProgress) => void;
      resolve: (position: bigint) => void;
      reject: (error: Error) => void;
    }
  >();
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
        if (message.ruleChanges.all || message.ruleChanges.ids.length > 0) options.onRuleChanges?.(message.ruleChanges);
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

  const send = (message: ToProjectionThread) => port?.postMessage(message);

  return {
    async start() {
      const setup: ProjectionThreadSetup = {
        eventsFile: resolve(options.eventsFile),
        readModelsFile: resolve(options.readModelsFile),
        secrets: { key: options.secrets.key, previousKeys: [...options.secrets.previousKeys] },
        secretsKeyFile: options.secretsKeyFile,
        projections: options.projections.map((p) => p.name),
        iamProjections: [...options.iamProjections],
        logLevel: options.logLevel,
      };
      const here = fileURLToPath(import.meta.url);
      const host = new URL(`./projection-host${extname(here)}`, import.meta.url).href;
      const guest = hostOnWriterThread(options.eventsFile, host, setup);
      port = guest;
      await new Promise<void>((started, failed) => {
        guest.on('message', (message: FromProjectionThread) => {
          if (message.kind === 'started') started();
          else if (message.kind === 'failed') failed(new Error(`the projections could not start: ${message.error}`));
          else onMessage(message);
        });
        guest.once('close', () => failed(new Error('the event log writer thread ended while the projections started')));
      });
      guest.on('close', () => {
        if (stopping) return;
        options.logger.error('the projections on the event log writer thread ended');
        failAll('the event log writer thread ended');
      });
      // The platform stops it explicitly; an idle port must not keep the process alive.
      guest.unref();
    },

    async stop() {
      if (!port || stopping) return;
      stopping = true;
      const guest = port;
      const done = new Promise<void>((resolve) => {
        stopped = resolve;
        guest.once('close', () => resolve());
      });
      // Unreferenced, the host's answer would not keep this process waiting for it.
      guest.ref();
      send({ kind: 'stop' });
      await done;
      guest.close();
      waiters.cancelAll();
    },

    waitFor(position: bigint, timeoutMs = 2000) {
      return waiters.waitFor(position, timeoutMs);
    },

    rebuild(name: string, onProgress?: (progress: RebuildProgress) => void) {
      if (!status.some((s) => s.name === name)) return Promise.reject(new Error(`unknown projection ${name}`));
      const id = nextRebuild++;
      port?.ref();
      return new Promise<bigint>((resolve, reject) => {
        rebuilds.set(id, { onProgress, resolve, reject });
        send({ kind: 'rebuild', id, name });
      }).finally(() => {
        if (rebuilds.size === 0 && !stopping) port?.unref();
      });
    },

    status() {
      return status;
    },
  };
}
