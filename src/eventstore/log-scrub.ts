/**
 * The background scrub's two ways of running (its schedule and what it reports: composition/log-scrub.ts):
 * - embedded log: a thread of its own at the lowest priority (log-scrub-worker.ts) checks the
 *   pages of events.db and the read-model file, and walks the log's chains; the event loop that
 *   serves requests does none of it.
 * - EventStoreDB: the server verifies its chunks' own checksums (at start-up, unless told to skip);
 *   what is ours is the chain, walked here through the store's client in time slices
 *   (src/time-slice.ts), a small page of events at a time, so requests run between pages.
 */
import { DEFAULT_SLICE_MS, timeSlices } from '../time-slice.js';
import { spawnWorker } from '../spawn-worker.js';
import { isDamagedFileError } from '../sqlite/damaged-file.js';
import { walkLogChain } from './chain-walk.js';
import type { EventStore } from './port.js';
import type { ChainScrub, ScrubResult } from './scrub-verdict.js';

export interface ScrubRun {
  result: Promise<ScrubResult>;
  /** Abandons the run (the platform stops): its result never comes. */
  stop(): void;
}

/** Scrubs `logFile` (pages and chains) and `otherFiles` (pages) on a thread of its own. */
export function scrubOnThread(logFile: string, otherFiles: string[]): ScrubRun {
  const worker = spawnWorker(import.meta.url, 'log-scrub-worker', { workerData: { logFile, otherFiles } });
  // Nothing waits on the scrub to exit: a stop must not wait for a page check in progress.
  worker.unref();
  const result = new Promise<ScrubResult>((resolve, reject) => {
    worker.once('message', (message: { result?: ScrubResult; error?: string }) =>
      message.result ? resolve(message.result) : reject(new Error(message.error)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the scrub thread exited with ${code} before its result`)));
  });
  return {
    result,
    stop: () => {
      void worker.terminate();
    },
  };
}

/** Events per page on the serving thread: reading and hashing 200 takes a few milliseconds. */
const SLICED_PAGE_EVENTS = 200;

/** Walks the chains of a log reached through a client (EventStoreDB), yielding to requests every slice. */
export function scrubChainsHere(log: EventStore, sliceMs = DEFAULT_SLICE_MS): ScrubRun {
  let stopped = false;
  const slices = timeSlices(sliceMs);
  const pause = async () => {
    if (stopped) throw new Error('the scrub was stopped');
    await slices();
  };
  const walk = async (): Promise<ChainScrub> => {
    try {
      const found = await walkLogChain(log, { pause, until: await log.headPosition(), pageEvents: SLICED_PAGE_EVENTS });
      return { events: found.totals.events, breakCount: found.breaks.length, breaks: found.breaks.slice(0, 10) };
    } catch (error) {
      return { failed: (error as Error).message, damaged: isDamagedFileError(error) };
    }
  };
  return {
    result: walk().then((chain) => ({ finishedAt: new Date(), pages: [], chain })),
    stop: () => {
      stopped = true;
    },
  };
}
