/**
 * Translates read-store filters, sorts and keyset positions into SQL over JSON documents.
 * Pure: returns SQL text and parameters; the adapter runs them.
 */
import type { After, FieldCondition, Filter, Scalar, Sort } from './port.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The expression for a top-level field; the same text is used by expression indexes. */
export function fieldExpression(field: string): string {
  if (field === 'id') return 'id';
  if (!FIELD_NAME.test(field)) throw new Error(`invalid field name: ${field}`);
  return `json_extract(doc, '$.${field}')`;
}

/** SQLite's JSON functions report true/false as 1/0. */
export const sqlValue = (value: Scalar): unknown => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

function condition(field: string, cond: FieldCondition): SqlFragment {
  const expr = fieldExpression(field);
  if (cond === null) return { sql: `${expr} IS NULL`, params: [] };
  if (typeof cond !== 'object') return { sql: `${expr} = ?`, params: [sqlValue(cond)] };
  if ('$in' in cond) {
    if (cond.$in.length === 0) return { sql: '0', params: [] };
    return { sql: `${expr} IN (${cond.$in.map(() => '?').join(', ')})`, params: cond.$in.map(sqlValue) };
  }
  if ('$ne' in cond) {
    return cond.$ne === null
      ? { sql: `${expr} IS NOT NULL`, params: [] }
      : { sql: `(${expr} IS NULL OR ${expr} != ?)`, params: [sqlValue(cond.$ne)] };
  }
  if ('$contains' in cond) {
    return {
      sql: `EXISTS (SELECT 1 FROM json_each(doc, '$.${field}') WHERE value = ?)`,
      params: [sqlValue(cond.$contains)],
    };
  }
  const parts: SqlFragment[] = [];
  const ops = [
    ['$gt', '>'],
    ['$gte', '>='],
    ['$lt', '<'],
    ['$lte', '<='],
  ] as const;
  for (const [key, op] of ops) {
    const value = cond[key];
    if (value !== undefined) parts.push({ sql: `${expr} ${op} ?`, params: [sqlValue(value)] });
  }
  return and(parts);
}

function and(parts: SqlFragment[]): SqlFragment {
  if (parts.length === 0) return { sql: '1', params: [] };
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}

export function whereClause(filter: Filter): SqlFragment {
  return and(Object.entries(filter).map(([field, cond]) => condition(field, cond)));
}

/** The tie-breaker runs in the direction of the last sort key, so one index can serve the whole order. */
export const tieBreakDirection = (sort: Sort = []) =>
  sort.filter(([field]) => field !== 'id').at(-1)?.[1] ?? sort.find(([f]) => f === 'id')?.[1] ?? 'asc';

export function orderBy(sort: Sort = []): string {
  const keys = sort
    .filter(([field]) => field !== 'id')
    .map(([field, dir]) => `${fieldExpression(field)} ${dir.toUpperCase()}`);
  return [...keys, `id ${tieBreakDirection(sort).toUpperCase()}`].join(', ');
}

/**
 * Keyset continuation: documents strictly after `after` in the sort order. For keys k1..kn and the
 * id tie-breaker: (k1 beyond v1) OR (k1 = v1 AND k2 beyond v2) OR ... OR (all equal AND id > last).
 */
export function afterClause(sort: Sort = [], after: After): SqlFragment {
  const keys = sort.filter(([field]) => field !== 'id');
  const branches: SqlFragment[] = [];
  const equalSoFar: SqlFragment[] = [];
  keys.forEach(([field, dir], i) => {
    const expr = fieldExpression(field);
    const value = sqlValue(after.values[i] as Scalar);
    branches.push(and([...equalSoFar, { sql: `${expr} ${dir === 'asc' ? '>' : '<'} ?`, params: [value] }]));
    equalSoFar.push({ sql: `${expr} = ?`, params: [value] });
  });
  branches.push(
    and([...equalSoFar, { sql: `id ${tieBreakDirection(sort) === 'asc' ? '>' : '<'} ?`, params: [after.id] }]),
  );
  return { sql: branches.map((b) => `(${b.sql})`).join(' OR '), params: branches.flatMap((b) => b.params) };
}
