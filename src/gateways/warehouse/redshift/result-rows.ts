import type { ColumnMetadata, Field } from '@aws-sdk/client-redshift-data';

/**
 * GetStatementResult returns positional `Field` unions; the adapter works with rows keyed by
 * column name and reads each column with the type it expects. Redshift sends DECIMAL/NUMERIC as
 * stringValue and BIGINT as longValue, so the numeric readers accept both.
 */

export type FieldValue = string | number | boolean | null;
export type ResultRow = Readonly<Record<string, FieldValue>>;

export function fieldValue(field: Field): FieldValue {
  if (field.isNull) return null;
  if (field.stringValue !== undefined) return field.stringValue;
  if (field.longValue !== undefined) return field.longValue;
  if (field.doubleValue !== undefined) return field.doubleValue;
  if (field.booleanValue !== undefined) return field.booleanValue;
  if (field.blobValue !== undefined) return Buffer.from(field.blobValue).toString('base64');
  return null;
}

export function rowsFromRecords(columns: readonly ColumnMetadata[], records: readonly Field[][]): ResultRow[] {
  const names = columns.map((column, index) => column.label ?? column.name ?? `column_${index}`);
  return records.map((record) => {
    const row: Record<string, FieldValue> = {};
    names.forEach((name, index) => {
      const field = record[index];
      row[name] = field === undefined ? null : fieldValue(field);
    });
    return row;
  });
}

/** A result that does not have the shape the SQL promises is a bug in the adapter, not an outage. */
export class ResultShapeError extends Error {
  override readonly name = 'ResultShapeError';
}

function present(row: ResultRow, column: string): FieldValue {
  if (!(column in row)) throw new ResultShapeError(`result has no column "${column}"`);
  return row[column] ?? null;
}

export function textOf(row: ResultRow, column: string): string {
  const value = present(row, column);
  return value === null ? '' : String(value).trim();
}

export function numberOf(row: ResultRow, column: string): number {
  const value = present(row, column);
  if (value === null || value === '') return 0;
  const parsed = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(parsed)) throw new ResultShapeError(`column "${column}" is not numeric: ${String(value)}`);
  return parsed;
}

export function integerOf(row: ResultRow, column: string): number {
  return Math.round(numberOf(row, column));
}

/** Redshift timestamps arrive as "2024-05-01 12:00:00[.ffffff]" in UTC. */
export function isoTimestampOf(row: ResultRow, column: string): string {
  const value = textOf(row, column);
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(value);
  if (!match) throw new ResultShapeError(`column "${column}" is not a timestamp: ${value}`);
  const millis = (match[3] ?? '.000').slice(0, 4).padEnd(4, '0');
  return `${match[1]}T${match[2]}${millis}Z`;
}

/** The text form Redshift casts back to a timestamp (UTC, no zone suffix). */
export function toRedshiftTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '');
}

/** The fields of a finished query every query record shares (sync-sources.ts QueryRun). */
export const queryRunFrom = (clusterId: string, row: ResultRow) => ({
  cluster_id: clusterId,
  query_id: integerOf(row, 'query_id'),
  user_name: textOf(row, 'user_name'),
  database: textOf(row, 'database'),
  queue: textOf(row, 'queue'),
  start_time: isoTimestampOf(row, 'start_time'),
  end_time: isoTimestampOf(row, 'end_time'),
  query_text: textOf(row, 'query_text'),
});
