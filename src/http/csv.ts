/**
 * CSV answers (RFC 4180): a header row, CRLF line ends, each field as src/http/csv-cell.ts writes it
 * (quoted where needed, text that a spreadsheet would run as a formula neutralised). Every CSV the
 * platform writes goes through toCsv. A client asks for one with `Accept: text/csv`.
 */
import type { Context } from 'koa';
import { csvField, type CsvCell } from './csv-cell.js';

export type { CsvCell } from './csv-cell.js';

export const toCsv = (header: readonly string[], rows: readonly CsvCell[][]) =>
  [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';

/** Whether the client prefers CSV to JSON (JSON when it names neither or accepts anything). */
export const wantsCsv = (ctx: Context) => ctx.accepts('application/json', 'text/csv') === 'text/csv';

export function okCsv(ctx: Context, header: readonly string[], rows: readonly CsvCell[][], filename: string): void {
  ctx.status = 200;
  ctx.type = 'text/csv; charset=utf-8; header=present';
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.body = toCsv(header, rows);
}
