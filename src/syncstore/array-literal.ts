/**
 * PostgreSQL array literals ('{a,"b c",NULL}') built by hand for the upsert's column arrays. The
 * driver would build them too, but generically and on the event loop while the server waits;
 * built here they are plain strings, encoded while the previous batch is still being written, and
 * the same text both adapters send. Every element is double-quoted (so commas, braces, spaces,
 * the word NULL and empty strings stay data), with backslash and double quote escaped.
 */
import type { ColumnType } from './tables.js';

const escapable = /["\\]/g;

function quoted(text: string): string {
  // PostgreSQL text cannot hold NUL; a warehouse string with one would fail the whole batch.
  const clean = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  return `"${clean.replace(escapable, '\\$&')}"`;
}

function element(value: unknown, type: ColumnType): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
      return String(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (value instanceof Date) return `"${value.toISOString()}"`;
      throw new TypeError(`cannot store a ${typeof value} in a ${type} column`);
  }
}

/** One column's values as an array literal for a `$n::type[]` parameter. */
export function arrayLiteral(values: readonly unknown[], type: ColumnType): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) parts[i] = element(values[i], type);
  return `{${parts.join(',')}}`;
}
