/**
 * Query evaluation for the stand-in, delegated to mingo. mingo cannot compare (or even print)
 * bigint, so filters and sorts run on "comparable" views where int64 values are plain numbers —
 * a real server compares numbers across BSON types numerically too — while the stored documents
 * keep their int64 values.
 */
import { Long, type Document } from 'bson';
import { Query, aggregate, find } from 'mingo';

/** A copy of `value` with bigint/Long as numbers (exact below 2^53, which covers our positions). */
export function comparable(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Long) return value.toNumber();
  if (Array.isArray(value)) return value.map(comparable);
  if (isPlainObject(value)) {
    const copy: Document = {};
    for (const [key, field] of Object.entries(value)) copy[key] = comparable(field);
    return copy;
  }
  return value;
}

function isPlainObject(value: unknown): value is Document {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export type Matcher = (doc: Document) => boolean;

export function compileFilter(filter: Document | undefined): Matcher {
  if (!filter || Object.keys(filter).length === 0) return () => true;
  const query = new Query(comparable(filter) as Document, {});
  return (doc) => query.test(comparable(doc) as Document);
}

/** Sorts stored documents by a Mongo sort spec without changing their values. */
export function sortDocuments(docs: Document[], sort: Document | undefined): Document[] {
  if (!sort || Object.keys(sort).length === 0) return docs;
  const originalOf = new Map<Document, Document>();
  const views = docs.map((doc) => {
    const view = comparable(doc) as Document;
    originalOf.set(view, doc);
    return view;
  });
  // mingo returns the very objects it was given, so each view maps back to its original.
  const sorted = find(views, {})
    .sort(comparable(sort) as Document)
    .all() as Document[];
  return sorted.map((view) => originalOf.get(view)!);
}

export function projectDocuments(docs: Document[], projection: Document | undefined): Document[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  return find(docs, {}, projection).all() as Document[];
}

export interface FindSpec {
  filter?: Document;
  sort?: Document;
  skip?: number;
  limit?: number;
  projection?: Document;
}

export function runFind(docs: Document[], spec: FindSpec): Document[] {
  const matches = compileFilter(spec.filter);
  let result = sortDocuments(docs.filter(matches), spec.sort);
  const skip = Number(spec.skip ?? 0);
  // A negative limit means "one batch of that size" to a server; either way it caps the result.
  const limit = Math.abs(Number(spec.limit ?? 0));
  result = result.slice(skip, limit > 0 ? skip + limit : undefined);
  return projectDocuments(result, spec.projection);
}

const PASS_THROUGH_STAGES = new Set(['$match', '$sort', '$skip', '$limit']);

/**
 * Runs an aggregation pipeline. Leading pass-through stages run on the stored documents (so int64
 * fields survive); the rest runs in mingo on comparable views, which is enough for `$group`/`$count`.
 */
export function runAggregate(docs: Document[], pipeline: Document[]): Document[] {
  let result = docs;
  let stage = 0;
  for (; stage < pipeline.length; stage++) {
    const [operator, argument] = Object.entries(pipeline[stage]!)[0] ?? [];
    if (!operator || !PASS_THROUGH_STAGES.has(operator)) break;
    if (operator === '$match') result = result.filter(compileFilter(argument as Document));
    if (operator === '$sort') result = sortDocuments(result, argument as Document);
    if (operator === '$skip') result = result.slice(Number(argument));
    if (operator === '$limit') result = result.slice(0, Number(argument));
  }
  if (stage === pipeline.length) return result;
  const views = result.map((doc) => comparable(doc));
  return aggregate(views, comparable(pipeline.slice(stage)) as Document[]) as Document[];
}
