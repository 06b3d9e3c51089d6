/**
 * A checkpoint beyond the log's head means the log lost its tail (a damaged or restored file): the
 * read model shows events the log no longer has, and the next appends would reuse their positions
 * unseen. The read model is derived data, so it is rebuilt from the log as it is (refusing to start
 * would only add a manual `npm run rebuild`); the lost events were acknowledged writes, which no
 * rebuild brings back, so that is logged as an error with how many positions were lost.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import type { ReadStore } from '../readstore/port.js';
import type { Projection } from './projection.js';
import { rebuildProjection } from './rebuild.js';

/** Logs the lost positions and rebuilds the projection; resolves with its new position. */
export async function rebuildAheadOfTheLog(
  deps: {
    eventStore: EventStore;
    readStore: ReadStore;
    logger: Logger;
    openEvent?: ((event: RecordedEvent) => RecordedEvent) | undefined;
  },
  projection: Projection,
  checkpoint: bigint,
  head: bigint,
): Promise<bigint> {
  const lost = checkpoint - head;
  deps.logger.error(
    { projection: projection.name, checkpoint: String(checkpoint), head: String(head), lostPositions: String(lost) },
    `the read model ${projection.name} is ahead of the event log: ${lost} positions after ${head} are missing from the log (acknowledged writes lost; restore events.db from a backup to recover them); rebuilding it from the log`,
  );
  return rebuildProjection(deps, projection);
}
