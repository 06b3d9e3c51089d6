/**
 * Cursor pages (DESIGN.md section 8): `?limit=&cursor=`; the cursor is opaque to clients
 * (base64url of the last item's sort values and id).
 */
import type { Context } from 'koa';
import type { After, Doc, Filter, ReadModelReader, Scalar, Sort } from '../readstore/port.js';
import { badRequest } from './problem.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface PageRequest {
  limit: number;
  after?: After;
}

export function pageRequest(ctx: Context): PageRequest {
  const rawLimit = ctx.query.limit;
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== undefined) {
    limit = Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, [{ path: '/limit', message: 'out of range' }]);
    }
  }
  const cursor = ctx.query.cursor;
  if (cursor === undefined || cursor === '') return { limit };
  return { limit, after: decodeCursor(String(cursor)) };
}

function decodeCursor(cursor: string): After {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v: Scalar[]; id: string };
    if (!Array.isArray(parsed.v) || typeof parsed.id !== 'string') throw new Error('shape');
    return { values: parsed.v, id: parsed.id };
  } catch {
    throw badRequest('cursor is not valid; use the next_cursor of a previous page', [{ path: '/cursor', message: 'invalid' }]);
  }
}

const encodeCursor = (doc: Doc, sort: Sort) =>
  Buffer.from(JSON.stringify({ v: sort.filter(([f]) => f !== 'id').map(([field]) => doc[field]), id: doc.id })).toString('base64url');

/** Reads one page: asks for one more item than the limit to know whether a next page exists. */
export async function readPage<T extends Doc>(reader: ReadModelReader, collection: string, filter: Filter, sort: Sort, page: PageRequest) {
  const found = await reader.find<T>(collection, filter, { sort, limit: page.limit + 1, after: page.after });
  const items = found.slice(0, page.limit);
  const nextCursor = found.length > page.limit ? encodeCursor(items.at(-1)!, sort) : null;
  return { items, page: { limit: page.limit, next_cursor: nextCursor } };
}
