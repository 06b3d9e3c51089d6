/**
 * The MongoDB adapter of the read store port. It works on a standalone server: no transactions or
 * change streams; idempotence comes from position-guarded writes (see mongodb-writer.ts) and the
 * checkpoint is a document per projection in `_checkpoints`, written after the batch's writes.
 * Deletes leave tombstones in a sibling collection (mongodb-tombstones.ts), which travels with its
 * collection here: dropped with it, swapped in with it.
 */
import { MongoClient, type Db } from 'mongodb';
import { isNamespaceNotFoundError, translateMongoError } from './mongodb-errors.js';
import { fieldPath } from './mongodb-query.js';
import { MongoReader, sameCollectionNames } from './mongodb-reader.js';
import { tombstonesOf } from './mongodb-tombstones.js';
import { PositionGuardedWriter } from './mongodb-writer.js';
import {
  ReadStoreUnavailableError,
  type ApplyBatchOptions,
  type Checkpoint,
  type IndexSpec,
  type ReadModelWriter,
  type ReadStore,
} from './port.js';

const CHECKPOINTS = '_checkpoints';

interface CheckpointDocument {
  _id: string;
  position: bigint | number;
  version: number;
}

class MongoReadStore extends MongoReader implements ReadStore {
  /** Indexes declared per collection, re-created on a collection swapped in by replaceCollection. */
  private readonly declaredIndexes = new Map<string, IndexSpec[]>();

  constructor(
    private readonly client: MongoClient,
    db: Db,
  ) {
    super(db);
  }

  async ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    this.declaredIndexes.set(collection, indexes);
    await this.createIndexes(collection, indexes);
  }

  private async createIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    if (indexes.length === 0) return;
    const descriptions = indexes.map((index) => ({
      name: index.name,
      // A Map keeps the key order, which is the index's field order.
      key: new Map(index.fields.map((field) => [fieldPath(field), 1 as const])),
      ...(index.unique ? { unique: true } : {}),
    }));
    try {
      // Creating an index that exists with the same definition is a no-op on the server.
      await this.db.collection(collection).createIndexes(descriptions);
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }

  async getCheckpoint(projection: string): Promise<Checkpoint | null> {
    try {
      const stored = await this.db.collection<CheckpointDocument>(CHECKPOINTS).findOne({ _id: projection });
      return stored ? { position: BigInt(stored.position), version: Number(stored.version) } : null;
    } catch (error) {
      throw translateMongoError(error, CHECKPOINTS);
    }
  }

  async setCheckpoint(projection: string, checkpoint: Checkpoint): Promise<void> {
    try {
      await this.db
        .collection<CheckpointDocument>(CHECKPOINTS)
        .updateOne(
          { _id: projection },
          { $set: { position: checkpoint.position, version: checkpoint.version } },
          { upsert: true },
        );
    } catch (error) {
      throw translateMongoError(error, CHECKPOINTS);
    }
  }

  async applyBatch<E extends { position: bigint }>(
    options: ApplyBatchOptions,
    events: E[],
    apply: (event: E, writer: ReadModelWriter) => Promise<void>,
  ): Promise<void> {
    if (events.length === 0) return;
    const writer = new PositionGuardedWriter(this.db, options.collectionNames ?? sameCollectionNames);
    let previous: bigint | undefined;
    for (const event of events) {
      // The guard compares positions, so they must grow within a batch for it to mean anything.
      if (previous !== undefined && event.position <= previous) {
        throw new Error(`event positions must increase within a batch (${event.position} after ${previous})`);
      }
      previous = event.position;
      writer.beginEvent(event.position);
      await apply(event, writer);
    }
    // Only after every write: a crash before this line redelivers the batch, which the guards absorb.
    await this.setCheckpoint(options.projection, { position: previous!, version: options.version });
  }

  async dropCollection(collection: string): Promise<void> {
    await this.dropOne(collection);
    await this.dropOne(tombstonesOf(collection));
  }

  private async dropOne(collection: string): Promise<void> {
    try {
      await this.db.dropCollection(collection);
    } catch (error) {
      if (isNamespaceNotFoundError(error)) return;
      throw translateMongoError(error, collection);
    }
  }

  async replaceCollections(swaps: ReadonlyArray<{ source: string; target: string }>): Promise<void> {
    // A standalone server renames one collection at a time (each atomic); see docs/operations.md.
    for (const { source, target } of swaps) await this.replaceCollection(source, target);
  }

  async replaceCollection(source: string, target: string): Promise<void> {
    // Indexes travel with the renamed collection, so give the source the target's indexes first;
    // a rebuild that violates a unique index then fails before the swap, not after it.
    await this.createIndexes(source, this.declaredIndexes.get(target) ?? []);
    // The rebuild's tombstones first: until the documents are swapped, the old ones still guard the old documents.
    await this.renameOver(tombstonesOf(source), tombstonesOf(target));
    await this.renameOver(source, target);
  }

  private async renameOver(source: string, target: string): Promise<void> {
    try {
      // One server-side rename that drops the target: readers see the old or the new collection.
      await this.db.renameCollection(source, target, { dropTarget: true });
    } catch (error) {
      // Nothing was rebuilt: the target must end up empty, like a rebuild that produced no documents.
      if (isNamespaceNotFoundError(error)) return this.dropOne(target);
      throw translateMongoError(error, target);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.db.command({ ping: 1 });
    } catch (error) {
      if (error instanceof ReadStoreUnavailableError) throw error;
      throw new ReadStoreUnavailableError(`read store ping failed: ${(error as Error).message}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Opens the store without connecting: the driver connects on first use, and `ping` reports an
 * unreachable server (bounded by `serverSelectionTimeoutMS` in the URL).
 */
export async function openMongoReadStore(url: string, options: { dbName?: string } = {}): Promise<ReadStore> {
  // useBigInt64: int64 fields (positions) come back as bigint. ignoreUndefined: undefined fields are
  // left out rather than stored as null, as JSON would do.
  const client = new MongoClient(url, { useBigInt64: true, ignoreUndefined: true });
  return new MongoReadStore(client, client.db(options.dbName));
}
