/**
 * How read-model documents are stored in MongoDB: `id` becomes `_id`, and `_pos` records the
 * position of the last event applied to the document (the idempotence guard). Neither internal
 * field is visible to readers.
 */
import type { Document } from 'mongodb';
import type { Doc } from './port.js';

export const POSITION_FIELD = '_pos';

/** A read-model document as stored: keyed by our string ids. */
export interface StoredDocument extends Document {
  _id: string;
}

/** Excludes the guard field server-side so reads do not carry it over the wire. */
export const READ_PROJECTION = { [POSITION_FIELD]: 0 } as const;

export function toStoredDocument(doc: Doc, position: bigint): StoredDocument {
  const { id, ...fields } = doc;
  return { _id: id, ...fields, [POSITION_FIELD]: position };
}

export function fromStoredDocument<T extends Doc>(stored: StoredDocument): T {
  const { _id, [POSITION_FIELD]: _position, ...fields } = stored;
  return { id: _id, ...fields } as T;
}
