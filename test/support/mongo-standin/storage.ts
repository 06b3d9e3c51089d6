/**
 * In-memory databases and collections of the stand-in, with unique indexes enforced on every
 * write the way a server does (missing fields index as null; `_id_` always exists).
 */
import { EJSON, deserialize, serialize, type Document } from 'bson';
import { CommandError } from './command-error.js';
import { comparable } from './query-engine.js';

export interface IndexDefinition {
  name: string;
  key: Document;
  unique: boolean;
  /** A TTL index (see ttl-monitor.ts). */
  expireAfterSeconds?: number;
}

const ID_INDEX: IndexDefinition = { name: '_id_', key: { _id: 1 }, unique: true };

/** A deep copy through BSON, so stored documents never share objects with commands or replies. */
export function cloneDocument(doc: Document): Document {
  return deserialize(serialize(doc), { useBigInt64: true, promoteValues: true });
}

function valueAt(doc: Document, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Document)[part];
  }
  return value ?? null;
}

function canonicalKey(value: unknown): string {
  return EJSON.stringify(comparable(value), { relaxed: true });
}

export class StoredCollection {
  readonly indexes: IndexDefinition[] = [ID_INDEX];
  /** Keyed by the canonical form of `_id`; Map order is insertion order, like a natural scan. */
  private readonly documents = new Map<string, Document>();

  constructor(
    readonly database: string,
    public name: string,
  ) {}

  /** The stored documents themselves: callers must not mutate them (replace them instead). */
  all(): Document[] {
    return [...this.documents.values()];
  }

  /**
   * The documents a filter can match: the one its `_id` names when it names one by value (the
   * server's _id index), else all of them. Callers still apply the whole filter to these.
   */
  candidates(filter: Document | undefined): Document[] {
    const id = filter?._id;
    const byValue =
      id !== undefined &&
      !(id !== null && typeof id === 'object' && Object.keys(id).some((key) => key.startsWith('$')));
    if (!byValue) return this.all();
    const doc = this.documents.get(canonicalKey(id));
    return doc ? [doc] : [];
  }

  get size(): number {
    return this.documents.size;
  }

  insert(doc: Document): void {
    const stored = cloneDocument(doc);
    this.assertUnique(stored, undefined);
    this.documents.set(canonicalKey(stored._id), stored);
  }

  /** Replaces `current` (a stored document) with `next`, keeping `current._id`; returns what was stored. */
  replace(current: Document, next: Document): Document {
    // `_id` stays first and unchanged, as a server keeps it.
    const stored = { _id: current._id, ...cloneDocument(next) };
    stored._id = current._id;
    this.assertUnique(stored, current);
    this.documents.set(canonicalKey(current._id), stored);
    return stored;
  }

  remove(doc: Document): void {
    this.documents.delete(canonicalKey(doc._id));
  }

  /** Adds an index; same name and same definition is a no-op, as on a server. Returns whether it was new. */
  createIndex(definition: IndexDefinition): boolean {
    const existing = this.indexes.find((index) => index.name === definition.name);
    if (existing) {
      if (canonicalKey(existing.key) !== canonicalKey(definition.key)) {
        throw new CommandError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index: ${definition.name}`,
        );
      }
      if (existing.unique !== definition.unique || existing.expireAfterSeconds !== definition.expireAfterSeconds) {
        throw new CommandError(
          'IndexOptionsConflict',
          `An equivalent index already exists with different options: ${definition.name}`,
        );
      }
      return false;
    }
    if (definition.unique) {
      const seen = new Map<string, Document>();
      for (const doc of this.documents.values()) {
        const key = this.indexKey(definition, doc);
        if (seen.has(key)) throw this.duplicateKeyError(definition, doc);
        seen.set(key, doc);
      }
    }
    this.indexes.push(definition);
    return true;
  }

  private indexKey(index: IndexDefinition, doc: Document): string {
    return canonicalKey(Object.keys(index.key).map((path) => valueAt(doc, path)));
  }

  private assertUnique(candidate: Document, replacing: Document | undefined): void {
    for (const index of this.indexes) {
      if (!index.unique) continue;
      if (index === ID_INDEX) {
        // The _id index is the map itself: a lookup, as the server's index is (not a scan).
        const existing = this.documents.get(canonicalKey(candidate._id));
        if (existing !== undefined && existing !== replacing) throw this.duplicateKeyError(index, candidate);
        continue;
      }
      const key = this.indexKey(index, candidate);
      for (const doc of this.documents.values()) {
        if (doc !== replacing && this.indexKey(index, doc) === key) throw this.duplicateKeyError(index, candidate);
      }
    }
  }

  /** Shaped like a server's E11000 error, which is how clients learn the index name. */
  private duplicateKeyError(index: IndexDefinition, doc: Document): CommandError {
    const keyValue: Document = {};
    for (const path of Object.keys(index.key)) keyValue[path] = valueAt(doc, path);
    const shown = Object.entries(keyValue)
      .map(([path, value]) => `${path}: ${EJSON.stringify(comparable(value), { relaxed: true })}`)
      .join(', ');
    const message = `E11000 duplicate key error collection: ${this.database}.${this.name} index: ${index.name} dup key: { ${shown} }`;
    return new CommandError('DuplicateKey', message, { keyPattern: index.key, keyValue });
  }
}

export class StandInStorage {
  private readonly databases = new Map<string, Map<string, StoredCollection>>();

  private database(name: string): Map<string, StoredCollection> {
    let database = this.databases.get(name);
    if (!database) this.databases.set(name, (database = new Map()));
    return database;
  }

  find(database: string, name: string): StoredCollection | undefined {
    return this.databases.get(database)?.get(name);
  }

  /** Writes create collections implicitly, as on a server. */
  findOrCreate(database: string, name: string): StoredCollection {
    const collections = this.database(database);
    let collection = collections.get(name);
    if (!collection) collections.set(name, (collection = new StoredCollection(database, name)));
    return collection;
  }

  /** Every collection of every database (the TTL monitor's rounds). */
  allCollections(): StoredCollection[] {
    return [...this.databases.values()].flatMap((collections) => [...collections.values()]);
  }

  names(database: string): string[] {
    return [...(this.databases.get(database)?.keys() ?? [])];
  }

  drop(database: string, name: string): StoredCollection | undefined {
    const collection = this.find(database, name);
    this.databases.get(database)?.delete(name);
    return collection;
  }

  dropDatabase(database: string): void {
    this.databases.delete(database);
  }

  /** Moves a collection (documents and indexes) to a new namespace, replacing the target if asked. */
  rename(from: { database: string; name: string }, to: { database: string; name: string }, dropTarget: boolean): void {
    const source = this.find(from.database, from.name);
    if (!source) throw new CommandError('NamespaceNotFound', 'source namespace does not exist');
    if (from.database !== to.database) {
      throw new CommandError('IllegalOperation', 'the stand-in only renames within a database');
    }
    if (this.find(to.database, to.name)) {
      if (!dropTarget) throw new CommandError('NamespaceExists', 'target namespace exists');
      this.drop(to.database, to.name);
    }
    this.drop(from.database, from.name);
    source.name = to.name;
    this.database(to.database).set(to.name, source);
  }
}
