/**
 * The walk over the whole log that checks every stream's chain (event-chain.mjs), in log order,
 * a page of events at a time: `npm run verify` and the background scrub (log-scrub-worker.ts) walk
 * it the same way. Reads below the secret box: hashes cover secret fields as sealed. Each stream's
 * newest revision and hash stay in memory while it walks (about 150 bytes per stream).
 */
import type { Pause } from '../time-slice.js';
import { chainChecker, type ChainBreak } from './event-chain.mjs';
import type { EventStore } from './port.js';
import { chainedEventOf, standingBreaks } from './recorded-chain.js';

/** Events read per page: one short read transaction each, so a checkpoint never waits long for the walk. */
export const WALK_PAGE_EVENTS = 1000;

export type BreakAt = ChainBreak & { position: bigint };

export interface ChainWalk {
  /** Where the log's chain began (null: a log written before that record existed). */
  chainStart: bigint | null;
  totals: { events: number; unhashed: number; streams: number };
  /** Every standing break, in log order. */
  breaks: BreakAt[];
}

/**
 * `pause` runs before each page of `pageEvents` (a time slice on a thread that serves requests); `until` stops the
 * walk at a position (the head it began from: what is appended meanwhile is the next walk's).
 */
export async function walkLogChain(
  log: EventStore,
  {
    pause = async () => {},
    until,
    pageEvents = WALK_PAGE_EVENTS,
  }: { pause?: Pause; until?: bigint; pageEvents?: number } = {},
): Promise<ChainWalk> {
  const chainStart = await log.chainStart();
  const checker = chainChecker({ chainStart });
  const found: BreakAt[] = [];
  let after: bigint | undefined;
  for (;;) {
    await pause();
    const page = await log.readAll({ after, maxCount: pageEvents });
    for (const event of page) {
      if (until !== undefined && event.position > until) break;
      const broken = checker.check(chainedEventOf(event));
      if (broken) found.push({ ...broken, position: event.position });
    }
    const last = page.at(-1);
    if (page.length < pageEvents || (until !== undefined && last!.position >= until)) break;
    after = last!.position;
  }
  return { chainStart, totals: checker.totals, breaks: await standingBreaks(log, found) };
}
