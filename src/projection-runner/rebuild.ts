/**
 * Rebuilding a projection beside its live read model (blue/green): build into shadow collections
 * from position 0 while the live read model keeps serving, then (under the runner's lock, so no
 * live batch interleaves) catch up the last events and switch the shadow collections in, all of a
 * projection's collections at once (replaceCollections), the previous ones dropped by the switch.
 */
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import { readEventData } from '../events/catalogue.js';
import type { ReadStore } from '../readstore/port.js';
import type { Projection } from './projection.js';

export interface RebuildProgress {
  projection: string;
  position: bigint;
  head: bigint;
  applied: number;
}

/** A rebuild that `shouldStop` ended before its switch: the live read model is untouched. */
export class RebuildStoppedError extends Error {
  override readonly name = 'RebuildStoppedError';
}

const shadowName = (collection: string) => `${collection}__rebuild`;
/** Events read and applied per read-store transaction (one transaction per page). */
export const REBUILD_PAGE = 20_000;

export interface RebuildOptions {
  onProgress?: (progress: RebuildProgress) => void;
  /** Runs the final catch-up and switch exclusively (the live runner's lock); defaults to inline. */
  exclusively?: (swap: () => Promise<bigint>) => Promise<void>;
  /** Checked before each page: true ends the rebuild with RebuildStoppedError (the runner stops). */
  shouldStop?: () => boolean;
}

export async function rebuildProjection(
  deps: {
    eventStore: EventStore;
    readStore: ReadStore;
    /** Opens an event's secrets when the log hands them sealed; only the events the projection handles. */
    openEvent?: ((event: RecordedEvent) => RecordedEvent) | undefined;
  },
  projection: Projection,
  options: RebuildOptions = {},
): Promise<bigint> {
  const { eventStore, readStore, openEvent = (event: RecordedEvent) => event } = deps;
  const { onProgress, shouldStop } = options;
  const exclusively = options.exclusively ?? (async (swap: () => Promise<bigint>) => void (await swap()));
  const handles = new Set(projection.handles);
  const shadowProjection = `${projection.name}__rebuild`;
  for (const [collection, indexes] of Object.entries(projection.collections)) {
    await readStore.dropCollection(shadowName(collection));
    await readStore.ensureIndexes(shadowName(collection), indexes);
  }
  let position = -1n;
  let applied = 0;

  const catchUp = async () => {
    const head = await eventStore.headPosition();
    for (;;) {
      if (shouldStop?.()) throw new RebuildStoppedError(`the rebuild of ${projection.name} was stopped`);
      const events = await eventStore.readAll({ after: position < 0n ? undefined : position, maxCount: REBUILD_PAGE });
      if (events.length === 0) return;
      const handled: RecordedEvent[] = [];
      for (const event of events) {
        if (!handles.has(event.type)) continue;
        const opened = openEvent(event);
        handled.push({ ...opened, data: readEventData(opened.type, opened.data) });
      }
      await readStore.applyBatch(
        { projection: shadowProjection, version: projection.version, collectionNames: shadowName },
        handled,
        (event, writer) => projection.apply(event, writer),
      );
      applied += handled.length;
      position = events.at(-1)!.position;
      onProgress?.({ projection: projection.name, position, head: head > position ? head : position, applied });
    }
  };

  await catchUp();
  await exclusively(async () => {
    await catchUp();
    await readStore.replaceCollections(
      Object.keys(projection.collections).map((collection) => ({ source: shadowName(collection), target: collection })),
    );
    await readStore.setCheckpoint(projection.name, { position, version: projection.version });
    await readStore.setCheckpoint(shadowProjection, { position: -1n, version: projection.version });
    return position;
  });
  return position;
}
