/** Tool output sent to the model is capped by cutting arrays, keeping valid JSON and whole rows. */
import test from 'ava';
import { capToolOutput, MAX_TOOL_OUTPUT_CHARS } from '../src/assistant/tool-output-cap.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `table_${i}`, size_mb: i * 10 }));

test('output under the cap is sent whole', (t) => {
  const output = { tables: rows(5) };
  t.deepEqual(capToolOutput(output), { text: JSON.stringify(output), truncated: false });
});

test('output over the cap keeps whole rows of its largest array and says how many it left out', (t) => {
  const output = { generated_at: 'now', tables: rows(2_000), nodes: rows(3) };
  const capped = capToolOutput(output, 4_000);
  t.true(capped.truncated);
  t.true(capped.text.length <= 4_000, `${capped.text.length}`);
  const parsed = JSON.parse(capped.text);
  t.is(parsed.result.generated_at, 'now');
  t.deepEqual(parsed.result.nodes, rows(3), 'small arrays are left alone');
  t.deepEqual(parsed.result.tables, rows(parsed.result.tables.length), 'the first rows, whole');
  t.is(parsed.truncated.omitted_items['/tables'], 2_000 - parsed.result.tables.length);
  t.regex(parsed.truncated.note, /narrower question/);
  t.deepEqual(output.tables.length, 2_000, "the tool's own value is untouched");
});

test('a single huge string is cut to a marked prefix', (t) => {
  const capped = capToolOutput({ text: 'x'.repeat(50_000) }, 1_000);
  t.true(capped.truncated);
  t.true(capped.text.length <= 1_000);
  t.regex(JSON.parse(capped.text).truncated.note, /first part only/);
});

test('the cap is 16,000 characters', (t) => {
  t.is(MAX_TOOL_OUTPUT_CHARS, 16_000);
  t.false(capToolOutput({ rows: rows(100) }).truncated);
  t.true(capToolOutput({ rows: rows(1_000) }).truncated);
});
