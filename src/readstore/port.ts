/**
 * The read store port: documents in named collections, written only by projections and read by
 * query routes. Adapters: embedded SQLite and MongoDB; test/readstore.contract.ts runs the same
 * suite against each.
 */

export type Scalar = string | number | boolean;

/** A document of a read model. `id` is its key within the collection. */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

export interface RangeCondition {
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
}

/**
 * A condition on one top-level field. A bare value is equality (null matches a missing field).
 * `$contains` matches documents whose array field contains the value.
 */
export type FieldCondition =
  | Scalar
  | null
  | { $in: Scalar[] }
  | { $ne: Scalar | null }
  | { $contains: Scalar }
  | RangeCondition;

/** All conditions must hold (AND). */
export type Filter = Record<string, FieldCondition>;

export type SortDirection = 'asc' | 'desc';
/**
 * Sort keys, most significant first. `id` is always appended as the tie-breaker, in the direction
 * of the last sort key (so `createdAt desc` pages newest first with one index on (…, createdAt, id)).
 */
export type Sort = ReadonlyArray<readonly [field: string, direction: SortDirection]>;

/** Keyset position: the sort values and id of the last document of the previous page. */
export interface After {
  values: Scalar[];
  id: string;
}

export interface FindOptions {
  sort?: Sort;
  limit?: number;
  /** Continue strictly after this document in the given sort order. */
  after?: After;
}

export interface IndexSpec {
  name: string;
  fields: string[];
  unique?: boolean;
}

export interface ReadModelReader {
  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null>;
  find<T extends Doc = Doc>(collection: string, filter: Filter, options?: FindOptions): Promise<T[]>;
  count(collection: string, filter: Filter): Promise<number>;
}

/**
 * Handed to a projection while it applies one event. Writes are guarded by the event's position,
 * so applying the same event twice leaves the same read model (idempotence).
 */
export interface ReadModelWriter extends ReadModelReader {
  /** Insert or replace the whole document. */
  upsert(collection: string, doc: Doc): Promise<void>;
  /** Shallow-merge fields into an existing document; nothing happens when it is missing. */
  patch(collection: string, id: string, fields: Record<string, unknown>): Promise<void>;
  delete(collection: string, id: string): Promise<void>;
  deleteMany(collection: string, filter: Filter): Promise<number>;
}

export interface Checkpoint {
  /** Position of the last applied event; -1n before the first. */
  position: bigint;
  version: number;
}

export interface ApplyBatchOptions {
  projection: string;
  version: number;
  /** Physical collection names for this batch (logical → physical), used by rebuilds. */
  collectionNames?: (logical: string) => string;
}

export interface ReadStore extends ReadModelReader {
  ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void>;
  getCheckpoint(projection: string): Promise<Checkpoint | null>;
  /**
   * Applies events through `apply` and then stores the checkpoint at the last event's position.
   * Embedded: one transaction. MongoDB: position-guarded writes, then the checkpoint document.
   */
  applyBatch<E extends { position: bigint }>(
    options: ApplyBatchOptions,
    events: E[],
    apply: (event: E, writer: ReadModelWriter) => Promise<void>,
  ): Promise<void>;
  /** Writes a checkpoint directly (used after a rebuild swap). */
  setCheckpoint(projection: string, checkpoint: Checkpoint): Promise<void>;
  dropCollection(collection: string): Promise<void>;
  /** Atomically (as far as the backend allows) replaces `target` with `source`. */
  replaceCollection(source: string, target: string): Promise<void>;
  /**
   * Replaces each `target` with its `source` (a rebuilt read model's collections switched in, the
   * previous ones dropped). Embedded: one transaction, so a reader sees every old collection or
   * every new one. MongoDB: one atomic rename per collection, in order.
   */
  replaceCollections(swaps: ReadonlyArray<{ source: string; target: string }>): Promise<void>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
  constructor(
    readonly collection: string,
    readonly index: string,
  ) {
    super(`duplicate key in ${collection} (${index})`);
  }
}

export class ReadStoreUnavailableError extends Error {
  override readonly name = 'ReadStoreUnavailableError';
}
