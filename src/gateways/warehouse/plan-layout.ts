/**
 * How EXPLAIN lays out a plan, shared by both adapters so the model reads one shape: a child's
 * arrow sits two columns right of its parent's text and its text six, and a node's detail lines
 * (Hash Cond, Filter, Sort Key …) two columns right of its own text.
 */
export function planLayout(depth: number, text: string, info: readonly string[] = []): string[] {
  const column = depth * 6;
  const line = depth === 0 ? text : `${' '.repeat(column - 4)}->  ${text}`;
  return [line, ...info.map((detail) => `${' '.repeat(column + 2)}${detail}`)];
}
