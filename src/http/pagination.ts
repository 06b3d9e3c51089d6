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

/** `sortKeys`: how many sort keys (besides id) the list's cursor carries. */
export function pageRequest(ctx: Context, sortKeys = 1): PageRequest {
  const rawLimit = ctx.query.limit;
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== undefined) {
    limit = Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, [
        { path: '/limit', message: 'out of range' },
      ]);
    }
  }
  const cursor = ctx.query.cursor;
  if (cursor === undefined || cursor === '') return { limit };
  return { limit, after: decodeCursor(String(cursor), sortKeys) };
}

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** The cursor comes from the client: only scalars, as many as the sort has keys, or it is refused. */
function decodeCursor(cursor: string, sortKeys: number): After {
  let parsed: { v?: unknown; id?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = {};
  }
  const values = parsed?.v;
  if (
    !Array.isArray(values) ||
    values.length !== sortKeys ||
    !values.every(isScalar) ||
    typeof parsed.id !== 'string'
  ) {
    throw badRequest('cursor is not valid; use the next_cursor of a previous page', [
      { path: '/cursor', message: 'invalid' },
    ]);
  }
  return { values, id: parsed.id };
}

/** The cursor after an item with these sort values and this id (what `pageRequest` decodes). */
export const encodeCursor = (values: Scalar[], id: string) =>
  Buffer.from(JSON.stringify({ v: values, id })).toString('base64url');

const cursorAfter = (doc: Doc, sort: Sort) =>
  encodeCursor(
    sort.filter(([f]) => f !== 'id').map(([field]) => doc[field] as Scalar),
    doc.id,
  );

/** Reads one page: asks for one more item than the limit to know whether a next page exists. */
export async function readPage<T extends Doc>(
  reader: ReadModelReader,
  collection: string,
  filter: Filter,
  sort: Sort,
  page: PageRequest,
) {
  const found = await reader.find<T>(collection, filter, { sort, limit: page.limit + 1, after: page.after });
  const items = found.slice(0, page.limit);
  const nextCursor = found.length > page.limit ? cursorAfter(items.at(-1)!, sort) : null;
  return { items, page: { limit: page.limit, next_cursor: nextCursor } };
}
