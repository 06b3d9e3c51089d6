/**
 * Where JSON.parse gave up, as a character offset. V8 names the position in most messages
 * ("... in JSON at position 7") but not in others ("Unexpected token '}', "{"a":}" is not valid
 * JSON", which also echoes the text and so is never shown to a client). For those, the position is
 * found by bisection: the shortest prefix that fails for a reason other than ending too early
 * ends just after the offending character.
 */
type Outcome = number | 'valid' | 'ends-early' | 'unlocated';

function outcomeOf(text: string): Outcome {
  try {
    JSON.parse(text);
    return 'valid';
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    if (at) return Number(at[1]);
    if (/end of JSON input/.test(message)) return 'ends-early';
    return 'unlocated';
  }
}

/** Whether a prefix of this length already contains the error (rather than just being cut short). */
function failsWithin(text: string, length: number): boolean {
  const outcome = outcomeOf(text.slice(0, length));
  if (typeof outcome === 'number') return outcome < length;
  return outcome === 'unlocated';
}

/** The offset of the error in `text`, which JSON.parse refuses. */
export function jsonErrorPosition(text: string): number {
  const outcome = outcomeOf(text);
  if (typeof outcome === 'number') return outcome;
  if (outcome !== 'unlocated') return text.length;
  let low = 1;
  let high = text.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (failsWithin(text, middle)) high = middle;
    else low = middle + 1;
  }
  return low - 1;
}
