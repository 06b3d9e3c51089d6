/**
 * Translation of the port's filters, sorts and keyset positions into MongoDB queries. Our `id` is
 * the document's `_id`.
 */
import type { Document, Filter as MongoFilter } from 'mongodb';
import type { StoredDocument } from './mongodb-documents.js';
import type { After, FieldCondition, Filter, Scalar, Sort } from './port.js';

type MongoSortKey = [field: string, direction: 1 | -1];

/** Operators that Mongo understands exactly as the port means them. */
const PASS_THROUGH_OPERATORS = new Set(['$in', '$ne', '$gt', '$gte', '$lt', '$lte']);

export function fieldPath(field: string): string {
  return field === 'id' ? '_id' : field;
}

function toMongoCondition(field: string, condition: FieldCondition): unknown {
  // Bare values are equality; Mongo's `{ field: null }` also matches a missing field, as the port wants.
  if (condition === null || typeof condition !== 'object') return condition;
  const operators = Object.keys(condition);
  // Equality against an array field matches documents whose array contains the value.
  if (operators.length === 1 && operators[0] === '$contains') return (condition as { $contains: Scalar }).$contains;
  const unsupported = operators.filter((operator) => !PASS_THROUGH_OPERATORS.has(operator));
  if (operators.length === 0 || unsupported.length > 0) {
    throw new Error(`unsupported condition on "${field}": ${JSON.stringify(condition)}`);
  }
  return { ...condition };
}

export function toMongoFilter(filter: Filter): MongoFilter<StoredDocument> {
  const query: Document = {};
  for (const [field, condition] of Object.entries(filter)) {
    query[fieldPath(field)] = toMongoCondition(field, condition);
  }
  return query;
}

/**
 * The sort keys as Mongo sees them, with `_id` appended (in the direction of the last key, as the
 * port specifies) unless `id` is already a key.
 */
export function toMongoSort(sort: Sort = []): MongoSortKey[] {
  const keys: MongoSortKey[] = sort.map(([field, direction]) => [fieldPath(field), direction === 'desc' ? -1 : 1]);
  if (!keys.some(([field]) => field === '_id')) keys.push(['_id', keys.at(-1)?.[1] ?? 1]);
  return keys;
}

/**
 * The value of each Mongo sort key at the keyset position. The id key always takes `after.id`;
 * `after.values` may list a value for every sort key or only for the keys other than `id`.
 */
function keysetValues(sort: Sort, after: After): unknown[] {
  const nonIdKeys = sort.filter(([field]) => field !== 'id').length;
  const valuesIncludeId = nonIdKeys < sort.length && after.values.length === sort.length;
  if (after.values.length !== (valuesIncludeId ? sort.length : nonIdKeys)) {
    throw new Error(`keyset position has ${after.values.length} values for ${sort.length} sort keys`);
  }
  const values: unknown[] = [...after.values];
  return toMongoSort(sort).map(([field]) => {
    if (field !== '_id') return values.shift();
    if (valuesIncludeId) values.shift();
    return after.id;
  });
}

/**
 * Documents strictly after `after` in the sort order: for each key k, "all earlier keys equal and
 * k beyond its value", OR-ed together. Beyond means greater for ascending keys, less for
 * descending ones.
 */
export function keysetCondition(sort: Sort = [], after: After): MongoFilter<StoredDocument> {
  const keys = toMongoSort(sort);
  const values = keysetValues(sort, after);
  // Keys after `_id` can never decide the order (ids are unique), so they add no branch.
  const deciding = keys.slice(0, keys.findIndex(([field]) => field === '_id') + 1);
  const branches = deciding.map(([field, direction], index) => {
    const branch: Document = {};
    for (let earlier = 0; earlier < index; earlier++) branch[keys[earlier]![0]] = values[earlier];
    branch[field] = { [direction === 1 ? '$gt' : '$lt']: values[index] };
    return branch;
  });
  return { $or: branches };
}

/** The query for a find: the filter, narrowed to what follows the keyset position if there is one. */
export function toMongoFindQuery(
  filter: Filter,
  sort: Sort | undefined,
  after: After | undefined,
): MongoFilter<StoredDocument> {
  const query = toMongoFilter(filter);
  if (!after) return query;
  const continuation = keysetCondition(sort, after);
  return Object.keys(query).length === 0 ? continuation : { $and: [query, continuation] };
}
