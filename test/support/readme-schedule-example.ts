/**
 * The on-call worked example of docs/schedules.md ("Worked example"), read from the document
 * itself, so the HTTP test that runs it fails when the text and the product disagree.
 */
import { readFileSync } from 'node:fs';

export interface ReadmeRangeRow {
  name: string;
  start: string;
  end: string;
  source: 'layer' | 'override';
  layer?: number;
}

export interface ReadmeScheduleExample {
  /** The schedule body with `"<name>"` placeholders for user ids. */
  body: { name: string; timezone: string; layers: { user_ids: string[] }[]; overrides: { user_id: string }[] };
  /** The names the placeholders stand for, in the order they first appear. */
  people: string[];
  /** `/api/v1/schedules/{id}/oncall?since=…&until=…` as written. */
  rangePath: string;
  rows: ReadmeRangeRow[];
  /** `/schedules/{id}/current-oncall?at=…` as written. */
  currentPath: string;
  /** The answer as written; `"…"` marks a value the README leaves out. */
  currentAnswer: { at: string; current_oncall: Record<string, unknown> };
}

const OMITTED = '…';

function section(readme: string, heading: string, after = 0): string {
  const start = readme.indexOf(heading, after);
  if (start < 0) throw new Error(`docs/schedules.md has no "${heading}"`);
  const end = readme.slice(start + heading.length).search(/\n#{1,2} /);
  return end < 0 ? readme.slice(start) : readme.slice(start, start + heading.length + end);
}

const jsonBlocks = (text: string) =>
  [...text.matchAll(/```json[^\n]*\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!) as unknown);

function rowOf(line: string): ReadmeRangeRow {
  const [name, start, end, source] = line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim()) as [string, string, string, string];
  const layer = /^layer (\d+)\b/.exec(source);
  if (layer !== null) return { name, start, end, source: 'layer', layer: Number(layer[1]) };
  if (source.startsWith('override')) return { name, start, end, source: 'override' };
  throw new Error(`the README's range row for ${name} names no source: ${source}`);
}

export function readReadmeScheduleExample(): ReadmeScheduleExample {
  const readme = readFileSync(new URL('../../docs/schedules.md', import.meta.url), 'utf8');
  const example = section(readme, '## Worked example');
  const [body, currentAnswer] = jsonBlocks(example) as [
    ReadmeScheduleExample['body'],
    ReadmeScheduleExample['currentAnswer'],
  ];
  const rangePath = /`GET (\/api\/v1\/schedules\/\{id\}\/oncall\?[^`]+)`/.exec(example)?.[1];
  const currentPath = /`GET (\/schedules\/\{id\}\/current-oncall\?at=[^`]+)`/.exec(example)?.[1];
  if (body === undefined || currentAnswer === undefined || rangePath === undefined || currentPath === undefined) {
    throw new Error(
      "the README's worked example lacks its body, its range request, its current-oncall request or its answer",
    );
  }
  const table = example
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| who') && !line.startsWith('|---'));
  const people = [...new Set([...JSON.stringify(body).matchAll(/"<(\w+)>"/g)].map((m) => m[1]!))];
  return { body, people, rangePath, rows: table.map(rowOf), currentPath, currentAnswer };
}

/** The body with each `"<name>"` replaced by that person's id. */
export function withIds<T>(value: T, idOf: (name: string) => string): T {
  return JSON.parse(JSON.stringify(value).replace(/"<(\w+)>"/g, (_, name: string) => JSON.stringify(idOf(name)))) as T;
}

/** True where the README writes `"…"`: the value is real but not shown. */
export const isOmitted = (value: unknown) => value === OMITTED;
