import { isUuid } from '../events/vocabulary.js';
import { notFound } from './problem.js';

/** Ids of stored resources are UUIDs; anything else cannot name one, so it is a 404 like any unknown id. */
export function storedResourceId(id: string | undefined, what: string): string {
  if (!isUuid(id)) throw notFound(what);
  return id;
}
