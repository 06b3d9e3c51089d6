/**
 * A MongoDB collection of state the instances of a cluster share outside the read models (stream
 * tickets, the simulator's pins): its indexes are made on first use, and again after a failure, so
 * a server that is down at start-up is no reason not to start; its errors are translated as the
 * read store's are (an unreachable server is a 503, not a 500).
 */
import type { Collection, Db, Document, IndexDescription } from 'mongodb';
import { translateMongoError } from './mongodb-errors.js';

export interface SharedCollection<T extends Document> {
  collection: Collection<T>;
  /** Runs `work` once the indexes exist, translating the driver's errors. */
  use<R>(work: (collection: Collection<T>) => Promise<R>): Promise<R>;
}

export function sharedCollection<T extends Document>(
  db: Db,
  name: string,
  indexes: IndexDescription[],
): SharedCollection<T> {
  const collection = db.collection<T>(name);
  let indexed: Promise<unknown> | undefined;
  const ensureIndexes = () =>
    (indexed ??= collection.createIndexes(indexes).catch((error) => {
      indexed = undefined;
      throw error;
    }));
  return {
    collection,
    async use(work) {
      try {
        await ensureIndexes();
        return await work(collection);
      } catch (error) {
        throw translateMongoError(error, name);
      }
    },
  };
}
