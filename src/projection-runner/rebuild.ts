/**
 * Rebuilding a projection: build into shadow collections from position 0 while the live read
 * model keeps serving, then (under the runner's lock, so no live batch interleaves) catch up the
 * last events and swap the shadow collections in.
 */
import type { EventStore } from '../eventstore/port.js';
import { readEventData } from '../events/catalogue.js';
import type { ReadStore } from '../readstore/port.js';
import type { Projection } from './projection.js';

export interface RebuildProgress {
  projection: string;
  position: bigint;
  head: bigint;
  applied: number;
}

const shadowName = (collection: string) => `${collection}__rebuild`;
const BATCH = 1000;

export async function rebuildProjection(
  deps: { eventStore: EventStore; readStore: ReadStore },
  projection: Projection,
  onProgress?: (progress: RebuildProgress) => void,
  /** Runs the final catch-up and swap exclusively (the live runner's lock); defaults to inline. */
  exclusively: (swap: () => Promise<bigint>) => Promise<void> = async (swap) => void (await swap()),
): Promise<bigint> {
  const { eventStore, readStore } = deps;
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
      const events = await eventStore.readAll({ after: position < 0n ? undefined : position, maxCount: BATCH });
      if (events.length === 0) return;
      const handled = events
        .filter((e) => handles.has(e.type))
        .map((e) => ({ ...e, data: readEventData(e.type, e.data) }));
      await readStore.applyBatch(
        { projection: shadowProjection, version: projection.version, collectionNames: shadowName },
        handled,
        (event, writer) => projection.apply(event, writer),
      );
      applied += handled.length;
      position = events.at(-1)!.position;
      onProgress?.({ projection: projection.name, position, head, applied });
    }
  };

  await catchUp();
  await exclusively(async () => {
    await catchUp();
    for (const collection of Object.keys(projection.collections)) {
      await readStore.replaceCollection(shadowName(collection), collection);
    }
    await readStore.setCheckpoint(projection.name, { position, version: projection.version });
    await readStore.setCheckpoint(shadowProjection, { position: -1n, version: projection.version });
    return position;
  });
  return position;
}
