/**
 * The background scrub (issue 39): damage is found before anything reads it. Once after start-up
 * and then every SCRUB_INTERVAL_HOURS (0: never), the embedded log's and read models' pages are
 * checked and the log's chains walked on a thread of their own at the lowest priority; on
 * EventStoreDB, which checks its own chunks, the chains only, in time slices (src/eventstore/log-scrub.ts).
 * What a result means is judged purely (src/eventstore/scrub-verdict.ts); /health reports the last
 * scrub's findings under `event_store` / `read_store` (naming the file and its recovery), and
 * /metrics carries the time of the last clean scrub and what the last one found.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { BackgroundProcess } from '../background-process.js';
import type { Config } from '../config.js';
import { scrubChainsHere, scrubOnThread, type ScrubRun } from '../eventstore/log-scrub.js';
import type { EventStore } from '../eventstore/port.js';
import {
  CHAIN_BREAK_RECOVERY,
  findingsOf,
  judgeScrub,
  type ScrubbedStore,
  type ScrubTarget,
  type ScrubVerdict,
} from '../eventstore/scrub-verdict.js';
import type { Timers } from '../process/sync/sync-scheduler.js';
import { READ_MODELS_RECOVERY } from '../readstore/sqlite.js';
import { EVENT_LOG_RECOVERY } from '../sqlite/damaged-file.js';

export interface LogScrub {
  /** For /health: what the last scrub found in this store's files, naming each and its recovery. */
  finding(store: ScrubbedStore): string | undefined;
  process: BackgroundProcess;
  /** The last finished scrub's verdict (undefined before the first ends). */
  verdict(): ScrubVerdict | undefined;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function composeLogScrub(deps: {
  config: Config;
  /** The log below the secret box: hashes cover secret fields as sealed. */
  logStore: EventStore;
  registry: Registry;
  logger: Logger;
  timers?: Timers;
}): LogScrub {
  const { config, logger } = deps;
  const timers = deps.timers ?? realTimers;
  const intervalMs = config.scrubIntervalHours * 3_600_000;
  const embedded = !config.eventStoreUrl;
  const logFile = join(config.dataDir, 'events.db');
  const readModelsFile = join(config.dataDir, 'read-models.db');
  const readModelsEmbedded = embedded && !config.mongodb;
  const log: ScrubTarget = embedded
    ? { store: 'event_store', name: 'events.db', recovery: EVENT_LOG_RECOVERY }
    : { store: 'event_store', name: 'the EventStoreDB log', recovery: CHAIN_BREAK_RECOVERY };
  const targets = {
    log,
    files: {
      [logFile]: log,
      [readModelsFile]: { store: 'read_store', name: readModelsFile, recovery: READ_MODELS_RECOVERY } as ScrubTarget,
    },
  };

  const lastClean = new Gauge({
    name: 'scrub_last_clean_timestamp_seconds',
    help: 'When the last scrub that found every page and every chain intact finished (Unix seconds; 0: none yet)',
    registers: [deps.registry],
  });
  const damageFound = new Gauge({
    name: 'scrub_damage_found',
    help: 'Files (or logs) the last finished scrub found damaged or with a broken chain',
    registers: [deps.registry],
  });
  const duration = new Gauge({
    name: 'scrub_last_duration_seconds',
    help: 'How long the last finished scrub took',
    registers: [deps.registry],
  });
  lastClean.set(0);
  damageFound.set(0);

  let verdict: ScrubVerdict | undefined;
  let running: ScrubRun | undefined;
  let timer: unknown;
  let stopped = false;

  const scheduleNext = (ms: number) => {
    if (!stopped && intervalMs > 0) timer = timers.setTimeout(run, ms);
  };
  function run() {
    const started = performance.now();
    const thisRun = embedded
      ? scrubOnThread(logFile, readModelsEmbedded ? [readModelsFile] : [])
      : scrubChainsHere(deps.logStore);
    running = thisRun;
    thisRun.result
      .then((result) => {
        if (stopped) return;
        verdict = judgeScrub(result, targets);
        duration.set((performance.now() - started) / 1000);
        damageFound.set(verdict.findings.length);
        if (verdict.clean) lastClean.set(result.finishedAt.getTime() / 1000);
        for (const finding of verdict.findings) logger.error({ file: finding.name }, finding.message);
        if (verdict.incomplete) logger.warn(`the scrub could not finish: ${verdict.incomplete}`);
        else if (verdict.clean) logger.info({ durationMs: Math.round(performance.now() - started) }, 'scrub clean');
      })
      .catch((error: unknown) => {
        if (!stopped) logger.warn({ err: error }, 'the scrub failed; it runs again at its next interval');
      })
      .finally(() => {
        if (running === thisRun) running = undefined;
        scheduleNext(intervalMs);
      });
  }

  return {
    finding: (store) => findingsOf(verdict, store),
    verdict: () => verdict,
    process: {
      start() {
        // Once right after start-up, then every interval after the previous one ended.
        scheduleNext(0);
      },
      async stop() {
        stopped = true;
        if (timer !== undefined) timers.clearTimeout(timer);
        running?.stop();
      },
    },
  };
}
