import type { ChainBreak, ChainedEvent } from './event-chain.mjs';
import type { EventStore, RecordedEvent } from './port.js';

/** A recorded event as the chain checker (event-chain.mjs) reads it. */
export const chainedEventOf = (event: RecordedEvent): ChainedEvent => ({
  stream: event.streamName,
  revision: event.revision,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  hash: event.chain?.hash,
  previousHash: event.chain?.previousHash,
  position: event.position,
});

/**
 * The breaks that stand once the store has been asked what the checker cannot know: a `start`
 * break (a stream's first event read is not revision 0) is dropped where retention applies to the
 * stream (it removes the oldest events), or where revision 0 is still stored (a read of the log's
 * newest events only began after it). One indexed read per such stream.
 */
export async function standingBreaks<Found extends ChainBreak>(
  log: EventStore,
  breaks: readonly Found[],
): Promise<Found[]> {
  const standing: Found[] = [];
  for (const found of breaks) {
    if (found.kind === 'start') {
      if (await log.hasRetention(found.stream)) continue;
      const [oldest] = await log.readStream(found.stream, { maxCount: 1 });
      if (oldest?.revision === 0n) continue;
    }
    standing.push(found);
  }
  return standing;
}

/** A break in words, naming the stream and revision (`npm run verify`, the scrub's /health finding). */
export const describeChainBreak = (found: ChainBreak): string => {
  const where = `stream ${found.stream} revision ${found.revision}`;
  switch (found.kind) {
    case 'content':
      return `${where}: the event no longer matches its hash (recorded ${found.expected}, its content hashes to ${found.found})`;
    case 'link':
      return `${where}: its previous hash is ${found.found}, but the stream's previous event hashes to ${found.expected}`;
    case 'gap':
      return `${where}: expected ${found.expected} next in the stream, found ${found.found} (an event is missing)`;
    case 'unhashed':
      return `${where}: the event has no hash although its stream's chain (or the log's) began before it`;
    case 'start':
      return `${where}: the stream's oldest stored event, but the stream has no retention, so its events before it were removed`;
  }
};
