/**
 * A read store that hands every call to `store` unchanged: the base of the wrappers that watch what
 * the projection runner commits (iam-change-stamps.ts, doc-changes.ts), which then override only
 * the calls they watch, and which would otherwise each spell out the rest.
 */
import type { ReadStore } from './port.js';

export function passThrough(store: ReadStore): ReadStore {
  return {
    get: (collection, id) => store.get(collection, id),
    find: (collection, filter, options) => store.find(collection, filter, options),
    count: (collection, filter) => store.count(collection, filter),
    ensureIndexes: (collection, indexes) => store.ensureIndexes(collection, indexes),
    getCheckpoint: (projection) => store.getCheckpoint(projection),
    setCheckpoint: (projection, checkpoint) => store.setCheckpoint(projection, checkpoint),
    dropCollection: (collection) => store.dropCollection(collection),
    replaceCollection: (source, target) => store.replaceCollection(source, target),
    replaceCollections: (swaps) => store.replaceCollections(swaps),
    applyBatch: (options, events, apply) => store.applyBatch(options, events, apply),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
