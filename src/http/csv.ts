/**
 * CSV answers (RFC 4180): a header row, CRLF line ends, and a field quoted (its quotes doubled) when
 * it holds a comma, a quote or a line break. A client asks for one with `Accept: text/csv`.
 */
import type { Context } from 'koa';

export type CsvCell = string | number | boolean | null;

const field = (value: CsvCell) => {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export const toCsv = (header: readonly string[], rows: readonly CsvCell[][]) =>
  [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';

/** Whether the client prefers CSV to JSON (JSON when it names neither or accepts anything). */
export const wantsCsv = (ctx: Context) => ctx.accepts('application/json', 'text/csv') === 'text/csv';

export function okCsv(ctx: Context, header: readonly string[], rows: readonly CsvCell[][], filename: string): void {
  ctx.status = 200;
  ctx.type = 'text/csv; charset=utf-8; header=present';
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.body = toCsv(header, rows);
}
