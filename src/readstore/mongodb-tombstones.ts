/**
 * Tombstones of deleted read-model documents on MongoDB. A delete removes the document and with it
 * the document's position guard (`_pos`), so without a trace an older write delivered later (a
 * batch redelivered after a crash before its checkpoint) would bring the document back. Each
 * deletion therefore leaves `{ _id, _pos }` in a sibling collection, `<collection>__tombstones`,
 * and an upsert first asks it whether a delete at the same or a later position has happened.
 *
 * A sibling collection rather than a `_deleted` mark on the document: reads, counts, sorts and
 * unique indexes of the read model stay exactly as they were (a marked document would have to be
 * excluded from every one of them, and unique indexes would need partial filters, which an index
 * created before this change does not have). The price is a second write per delete and a
 * lookup per upsert; the sibling follows its collection through drops and rebuild swaps.
 */
import type { Db, Filter as MongoFilter } from 'mongodb';
import { POSITION_FIELD } from './mongodb-documents.js';
import { isDuplicateKeyError } from './mongodb-errors.js';

export interface TombstoneDocument {
  _id: string;
  [POSITION_FIELD]: bigint;
}

const SUFFIX = '__tombstones';

export const tombstonesOf = (physical: string) => `${physical}${SUFFIX}`;

export class Tombstones {
  constructor(private readonly db: Db) {}

  private collection(physical: string) {
    return this.db.collection<TombstoneDocument>(tombstonesOf(physical));
  }

  /** True when the document was deleted at `position` or later (`inclusive`) / strictly later. */
  async deletedSince(physical: string, id: string, position: bigint, inclusive: boolean): Promise<boolean> {
    const filter: MongoFilter<TombstoneDocument> = {
      _id: id,
      [POSITION_FIELD]: inclusive ? { $gte: position } : { $gt: position },
    };
    return (await this.collection(physical).countDocuments(filter, { limit: 1 })) > 0;
  }

  /** Records deletions at `position`; a tombstone already at a later position stays as it is. */
  async record(physical: string, ids: readonly string[], position: bigint): Promise<void> {
    const target = this.collection(physical);
    for (const id of ids) {
      try {
        await target.updateOne(
          { _id: id, [POSITION_FIELD]: { $lt: position } },
          { $set: { [POSITION_FIELD]: position } },
          { upsert: true },
        );
      } catch (error) {
        // The guard missed because the tombstone is at this position or later: the upsert's insert collides.
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }
}
