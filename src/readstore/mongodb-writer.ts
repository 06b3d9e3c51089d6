/**
 * The writer handed to projections on MongoDB. Without transactions (a standalone server has
 * none), idempotence comes from a guard on every document: a write for the event at position p
 * only applies when the document's `_pos` < p, so redelivered events leave documents alone. The
 * one exception is a document this very event already wrote (its `_pos` is now p): further writes
 * of the same event must apply too, so the writer remembers which ids the current event wrote
 * (a projection may patch one document twice for one event; a plain `_pos <= p` guard would let a
 * redelivered event apply its read-modify-writes a second time).
 *
 * Deletes leave a tombstone (mongodb-tombstones.ts), which upserts consult under the same rule, so
 * a redelivered older upsert cannot resurrect a deleted document.
 */
import type { Db, Filter as MongoFilter } from 'mongodb';
import { POSITION_FIELD, toStoredDocument, type StoredDocument } from './mongodb-documents.js';
import { isDuplicateKeyError, translateMongoError } from './mongodb-errors.js';
import { toMongoFilter } from './mongodb-query.js';
import { MongoReader, type CollectionNames } from './mongodb-reader.js';
import { Tombstones } from './mongodb-tombstones.js';
import type { Doc, Filter, ReadModelWriter } from './port.js';

export class PositionGuardedWriter extends MongoReader implements ReadModelWriter {
  private position: bigint | undefined;
  /** Per physical collection, the ids whose write the current event applied. */
  private readonly writtenByEvent = new Map<string, Set<string>>();
  private readonly tombstones: Tombstones;

  constructor(db: Db, physicalName: CollectionNames) {
    super(db, physicalName);
    this.tombstones = new Tombstones(db);
  }

  /** Starts the writes of the event at `position`. */
  beginEvent(position: bigint): void {
    this.position = position;
    this.writtenByEvent.clear();
  }

  private currentPosition(): bigint {
    if (this.position === undefined) throw new Error('write outside of an event application');
    return this.position;
  }

  private writtenIds(physical: string): Set<string> {
    let ids = this.writtenByEvent.get(physical);
    if (!ids) this.writtenByEvent.set(physical, (ids = new Set()));
    return ids;
  }

  /** Matches the document when this event may still write it. */
  private guard(physical: string, id: string): MongoFilter<StoredDocument> {
    const position = this.currentPosition();
    const alreadyOurs = this.writtenIds(physical).has(id);
    return { _id: id, [POSITION_FIELD]: alreadyOurs ? { $lte: position } : { $lt: position } };
  }

  /** The opposite of the guard for an existing document: it already reflects this event or a later one. */
  private supersededFilter(physical: string, id: string): MongoFilter<StoredDocument> {
    const position = this.currentPosition();
    const alreadyOurs = this.writtenIds(physical).has(id);
    return { _id: id, [POSITION_FIELD]: alreadyOurs ? { $gt: position } : { $gte: position } };
  }

  async upsert(collection: string, doc: Doc): Promise<void> {
    const physical = this.physicalName(collection);
    const target = this.db.collection<StoredDocument>(physical);
    try {
      // Deleted by this event's or a later position (not by this very event): the document stays deleted.
      const ours = this.writtenIds(physical).has(doc.id);
      if (await this.tombstones.deletedSince(physical, doc.id, this.currentPosition(), !ours)) return;
      // When the guard does not match because the document is newer, the upsert tries to insert a
      // second document with the same _id and the server refuses it with a duplicate key error.
      await target.replaceOne(this.guard(physical, doc.id), toStoredDocument(doc, this.currentPosition()), {
        upsert: true,
      });
      this.writtenIds(physical).add(doc.id);
    } catch (error) {
      if (
        isDuplicateKeyError(error) &&
        (await target.countDocuments(this.supersededFilter(physical, doc.id), { limit: 1 })) > 0
      ) {
        return;
      }
      throw translateMongoError(error, collection);
    }
  }

  async patch(collection: string, id: string, fields: Record<string, unknown>): Promise<void> {
    const physical = this.physicalName(collection);
    const { id: _ignoredId, ...changes } = fields;
    try {
      const result = await this.db
        .collection<StoredDocument>(physical)
        .updateOne(this.guard(physical, id), { $set: { ...changes, [POSITION_FIELD]: this.currentPosition() } });
      if (result.matchedCount > 0) this.writtenIds(physical).add(id);
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }

  async delete(collection: string, id: string): Promise<void> {
    const physical = this.physicalName(collection);
    const target = this.db.collection<StoredDocument>(physical);
    try {
      const result = await target.deleteOne(this.guard(physical, id));
      // A document newer than this event stays, and needs no tombstone.
      if (result.deletedCount === 0 && (await target.countDocuments({ _id: id }, { limit: 1 })) > 0) return;
      // Also when there was nothing to delete: a redelivered batch may repeat a delete whose
      // tombstone a crash kept from being written.
      await this.tombstones.record(physical, [id], this.currentPosition());
      this.writtenIds(physical).add(id);
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }

  async deleteMany(collection: string, filter: Filter): Promise<number> {
    const physical = this.physicalName(collection);
    const position = this.currentPosition();
    const ours = this.writtenIds(physical);
    // Older documents, plus those this event itself wrote (their _pos is p).
    const guard: MongoFilter<StoredDocument> = {
      $or: [{ [POSITION_FIELD]: { $lt: position } }, { _id: { $in: [...ours] } }],
    };
    const target = this.db.collection<StoredDocument>(physical);
    try {
      // The ids first, so each deleted document gets its tombstone.
      const matching = await target
        .find({ $and: [toMongoFilter(filter), guard] }, { projection: { _id: 1 } })
        .toArray();
      if (matching.length === 0) return 0;
      const ids = matching.map((doc) => doc._id);
      const result = await target.deleteMany({ $and: [{ _id: { $in: ids } }, guard] });
      await this.tombstones.record(physical, ids, position);
      for (const id of ids) ours.add(id);
      return result.deletedCount;
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }
}
