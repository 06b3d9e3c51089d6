/**
 * The background scrub's thread (log-scrub.ts): at the lowest priority, SQLite's page check of
 * events.db and of the other files named (the embedded read models), then the walk over every
 * stream's chain from the log's first event to the head it found, through read connections of its
 * own, below the secret box. Posts one ScrubResult and ends. Nothing here touches the request path.
 */
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { isDamagedFileError } from '../sqlite/damaged-file.js';
import { checkPages } from '../sqlite/page-check.js';
import { lowerThisThreadsPriority } from '../thread-priority.js';
import { walkLogChain } from './chain-walk.js';
import type { ChainScrub, ScrubResult } from './scrub-verdict.js';
import { openSqliteLogReader } from './sqlite-log-reader.js';

/** Breaks sent back: the first names the place on /health; the count says how many. */
const SENT_BREAKS = 10;

const { logFile, otherFiles } = workerData as { logFile: string; otherFiles: string[] };

async function walkChains(): Promise<ChainScrub> {
  const log = openSqliteLogReader({ filename: logFile, onCommit: () => () => {} });
  try {
    const walk = await walkLogChain(log, { until: await log.headPosition() });
    return { events: walk.totals.events, breakCount: walk.breaks.length, breaks: walk.breaks.slice(0, SENT_BREAKS) };
  } catch (error) {
    return { failed: (error as Error).message, damaged: isDamagedFileError(error) };
  } finally {
    await log.close();
  }
}

async function scrub(): Promise<ScrubResult> {
  lowerThisThreadsPriority();
  const logPages = checkPages(logFile);
  const chain = logPages.problems.length === 0 ? await walkChains() : undefined;
  // A file not made yet (read models never opened) has no pages to check.
  const pages = [logPages, ...otherFiles.filter((file) => existsSync(file)).map((file) => checkPages(file))];
  return { finishedAt: new Date(), pages, ...(chain ? { chain } : {}) };
}

scrub().then(
  (result) => parentPort!.postMessage({ result }),
  (error: Error) => parentPort!.postMessage({ error: error.message }),
);
