/**
 * A change feed of one read-model collection: after each committed batch of the projection that
 * writes it, the ids of the documents the batch wrote; after the collection is swapped (a
 * rebuild), "all". A process that keeps the documents in memory (src/process/rule-mirror.ts)
 * re-reads only those, instead of the whole collection every time it needs it.
 *
 * Published after the commit (a reader then finds the change) and before the projection runner
 * releases its read-your-writes waiters, so a command answered as applied is in the feed already.
 */
import type { ReadModelWriter, ReadStore } from './port.js';
import { passThrough } from './pass-through.js';

/** What one or more committed batches changed: these documents, or (a swapped collection) any of them. */
export type DocChanges = { all: true } | { all: false; ids: readonly string[] };

export interface DocChangeFeed {
  publish(changes: DocChanges): void;
  /** Returns the unsubscribe. */
  subscribe(listener: (changes: DocChanges) => void): () => void;
}

export function docChangeFeed(): DocChangeFeed {
  const listeners = new Set<(changes: DocChanges) => void>();
  return {
    publish(changes) {
      if (!changes.all && changes.ids.length === 0) return;
      for (const listener of listeners) listener(changes);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** Accumulates changes (e.g. to post them to another thread in one message). */
export function collectedDocChanges() {
  let all = false;
  let ids = new Set<string>();
  return {
    add(changes: DocChanges) {
      if (changes.all) all = true;
      else for (const id of changes.ids) ids.add(id);
    },
    /** Everything added since the last take. */
    take(): DocChanges {
      const taken: DocChanges = all ? { all: true } : { all: false, ids: [...ids] };
      all = false;
      ids = new Set();
      return taken;
    },
  };
}

export interface WatchedCollection {
  /** The projection whose live batches write it (a rebuild's shadow projection has another name). */
  projection: string;
  collection: string;
}

/**
 * The read store as the projection runner should see it: unchanged, except that each committed
 * live batch of the watched projection publishes the ids it wrote in the watched collection, and
 * a swap into that collection publishes "all".
 */
export function reportingDocChanges(
  store: ReadStore,
  watched: WatchedCollection,
  publish: (changes: DocChanges) => void,
): ReadStore {
  return {
    ...passThrough(store),
    async applyBatch(options, events, apply) {
      if (options.projection !== watched.projection) return store.applyBatch(options, events, apply);
      const written = new Set<string>();
      let all = false;
      const recording = (writer: ReadModelWriter): ReadModelWriter => ({
        get: (collection, id) => writer.get(collection, id),
        find: (collection, filter, findOptions) => writer.find(collection, filter, findOptions),
        count: (collection, filter) => writer.count(collection, filter),
        upsert(collection, doc) {
          if (collection === watched.collection) written.add(String(doc.id));
          return writer.upsert(collection, doc);
        },
        patch(collection, id, fields) {
          if (collection === watched.collection) written.add(id);
          return writer.patch(collection, id, fields);
        },
        delete(collection, id) {
          if (collection === watched.collection) written.add(id);
          return writer.delete(collection, id);
        },
        deleteMany(collection, filter) {
          if (collection === watched.collection) all = true;
          return writer.deleteMany(collection, filter);
        },
      });
      await store.applyBatch(options, events, (event, writer) => apply(event, recording(writer)));
      publish(all ? { all: true } : { all: false, ids: [...written] });
    },
    async replaceCollection(source, target) {
      await store.replaceCollection(source, target);
      if (target === watched.collection) publish({ all: true });
    },
    // A version's build switched in beside the live one (projection-runner/rebuild.ts).
    async replaceCollections(swaps) {
      await store.replaceCollections(swaps);
      if (swaps.some(({ target }) => target === watched.collection)) publish({ all: true });
    },
  };
}
