/**
 * Start-up's look at the newest events of the embedded log: the last TAIL_EVENTS events are
 * checked against their streams' chains (event-chain.mjs) through a connection of their own,
 * below the secret box (hashes cover secret fields as sealed). About 10 ms for 1,000 events; the
 * whole log is `npm run verify`'s. Within the tail each event's own hash is recomputed and each
 * link to an earlier event of the tail checked; a link to an event before the tail is not. An
 * event without a hash after the log's chain start is a break; so is a stream of the tail whose
 * revision 0 is gone although no retention applies to it (one indexed read per such stream).
 *
 * A break is logged as an error and the platform starts anyway: a broken chain cannot be mended
 * (it is evidence), so refusing to start would turn it into an outage every later start repeats,
 * and whoever changed the file would decide when the platform serves. The error names the event
 * and the command that reports every break.
 */
import type { Logger } from 'pino';
import { chainChecker, type ChainBreak } from './event-chain.mjs';
import { chainedEventOf, standingBreaks } from './recorded-chain.js';
import { openSqliteLogReader } from './sqlite-log-reader.js';

export const TAIL_EVENTS = 1000;

export async function verifyLogTail(
  filename: string,
  count = TAIL_EVENTS,
): Promise<{ checked: number; breaks: ChainBreak[] }> {
  const log = openSqliteLogReader({ filename, onCommit: () => () => {} });
  try {
    const head = await log.headPosition();
    const after = head - BigInt(count);
    const events = await log.readAll({ after: after > 0n ? after : 0n, maxCount: count });
    const checker = chainChecker({ chainStart: await log.chainStart() });
    const breaks = events.flatMap((event) => {
      const found = checker.check(chainedEventOf(event));
      return found ? [found] : [];
    });
    return { checked: events.length, breaks: await standingBreaks(log, breaks) };
  } finally {
    await log.close();
  }
}

/** Logs what verifyLogTail found; never throws (a log it cannot read is reported by the store itself). */
export async function reportLogTail(filename: string, logger: Logger): Promise<void> {
  try {
    const { checked, breaks } = await verifyLogTail(filename);
    if (breaks.length === 0) {
      logger.info({ checked }, 'event log tail verified: its stream chains are intact');
      return;
    }
    const [first] = breaks;
    logger.error(
      { breaks: breaks.length, first, checked },
      `event log chain broken at stream ${first!.stream} revision ${first!.revision} (${first!.kind}): events.db was changed outside the platform; run \`npm run verify\` for every break`,
    );
  } catch (error) {
    logger.warn({ err: error }, 'the event log tail could not be verified');
  }
}
