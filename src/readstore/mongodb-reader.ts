/** Reads of read-model documents, shared by the store and by the writer handed to projections. */
import type { Db } from 'mongodb';
import { READ_PROJECTION, fromStoredDocument, type StoredDocument } from './mongodb-documents.js';
import { translateMongoError } from './mongodb-errors.js';
import { toMongoFilter, toMongoFindQuery, toMongoSort } from './mongodb-query.js';
import type { Doc, Filter, FindOptions, ReadModelReader } from './port.js';

export type CollectionNames = (logical: string) => string;

export const sameCollectionNames: CollectionNames = (logical) => logical;

export class MongoReader implements ReadModelReader {
  constructor(
    protected readonly db: Db,
    /** Logical → physical collection names (a rebuild writes to shadow collections). */
    protected readonly physicalName: CollectionNames = sameCollectionNames,
  ) {}

  protected collection(logical: string) {
    return this.db.collection<StoredDocument>(this.physicalName(logical));
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    try {
      const stored = await this.collection(collection).findOne({ _id: id }, { projection: READ_PROJECTION });
      return stored ? fromStoredDocument<T>(stored) : null;
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }

  async find<T extends Doc = Doc>(collection: string, filter: Filter, options: FindOptions = {}): Promise<T[]> {
    if (options.limit !== undefined && options.limit <= 0) return [];
    try {
      const cursor = this.collection(collection).find(toMongoFindQuery(filter, options.sort, options.after), {
        sort: toMongoSort(options.sort),
        projection: READ_PROJECTION,
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
      });
      return (await cursor.toArray()).map((stored) => fromStoredDocument<T>(stored));
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }

  async count(collection: string, filter: Filter): Promise<number> {
    try {
      return await this.collection(collection).countDocuments(toMongoFilter(filter));
    } catch (error) {
      throw translateMongoError(error, collection);
    }
  }
}
