import { z } from 'zod';
import { notFound } from '../src/http/problem.js';

const uuid = z.uuid();

/** Ids of stored resources are UUIDs; anything else cannot name one, so it is a 404 like any unknown id. */
export function storedResourceId(id: string | undefined, what: string): string {
  if (id === undefined || !uuid.safeParse(id).success) throw notFound(what);
  return id;
}
