/**
 * Tool output sent to the model is capped: a tool that answers thousands of rows would otherwise
 * fill the context window (and the bill) with one call. Over the cap, the longest arrays are
 * halved, again and again, until the JSON fits; the answer then says what was left out, so the
 * model can narrow its question instead of believing it saw everything. Cutting arrays keeps the
 * JSON valid and each kept row whole, which a cut through the text would not.
 */

/** Characters of JSON per tool result (about 4,000 tokens). */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;

export interface CappedOutput {
  text: string;
  truncated: boolean;
}

type Json = unknown;

interface ArraySite {
  path: string;
  array: unknown[];
  size: number;
}

function arraysIn(value: Json, path = ''): ArraySite[] {
  if (Array.isArray(value)) {
    return [
      { path: path || '/', array: value, size: JSON.stringify(value).length },
      ...value.flatMap((item, i) => arraysIn(item, `${path}/${i}`)),
    ];
  }
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => arraysIn(item, `${path}/${key}`));
  return [];
}

export function capToolOutput(output: Json, maxChars = MAX_TOOL_OUTPUT_CHARS): CappedOutput {
  const whole = JSON.stringify(output) ?? 'null';
  if (whole.length <= maxChars) return { text: whole, truncated: false };
  // Work on a copy: the caller's value (perhaps cached by a port) stays intact.
  const copy = JSON.parse(whole) as Json;
  const omitted = new Map<string, number>();
  const render = () =>
    JSON.stringify({
      truncated: {
        note: `the tool answered ${whole.length} characters of JSON; only part fits the ${maxChars}-character limit. Ask a narrower question for the rest.`,
        omitted_items: Object.fromEntries(omitted),
      },
      result: copy,
    });
  let text = render();
  while (text.length > maxChars) {
    const longest = arraysIn(copy)
      .filter((site) => site.array.length > 0)
      .sort((a, b) => b.size - a.size)[0];
    if (!longest) break;
    const keep = Math.floor(longest.array.length / 2);
    omitted.set(longest.path, (omitted.get(longest.path) ?? 0) + longest.array.length - keep);
    longest.array.length = keep;
    text = render();
  }
  // No arrays left to cut (one giant string, say): a plain prefix, marked as such.
  if (text.length > maxChars)
    text = JSON.stringify({
      truncated: { note: `the tool's answer exceeds ${maxChars} characters; first part only` },
      partial: whole.slice(0, maxChars - 200),
    });
  return { text, truncated: true };
}
