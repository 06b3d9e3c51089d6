/**
 * The PostgreSQL parser (libpg-query: PostgreSQL's own grammar compiled to WebAssembly) and a walk
 * over the trees it answers. The WebAssembly module loads asynchronously, once per process:
 * sqlParser() answers the parser when it is ready, and a failed load is tried again next time
 * (so a check fails closed while it cannot parse, and heals).
 */
import { loadModule, parseSync, scanSync, type ScanToken } from 'libpg-query';

export interface SqlParser {
  /** The statements (each a one-key object such as { SelectStmt: … }); throws on text the grammar refuses. */
  parse(sql: string): { stmt: Record<string, unknown> }[];
  /** The lexical tokens, comments included (offsets in UTF-8 bytes). */
  scan(sql: string): ScanToken[];
}

let loading: Promise<SqlParser> | undefined;

export function sqlParser(): Promise<SqlParser> {
  loading ??= loadModule().then(
    () => ({
      parse: (sql: string) =>
        (parseSync(sql).stmts ?? []).map((raw) => ({ stmt: (raw.stmt ?? {}) as Record<string, unknown> })),
      scan: (sql: string) => scanSync(sql).tokens,
    }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export type TreeNode = Record<string, unknown>;

/** Calls visit(kind, node) for every node of the tree: kind is the node's type key (FuncCall, RangeVar, SelectStmt, …). */
export function walkTree(tree: unknown, visit: (kind: string, node: TreeNode) => void): void {
  const pending: unknown[] = [tree];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (child && typeof child === 'object' && !Array.isArray(child) && /^[A-Z]/.test(key))
          visit(key, child as TreeNode);
        pending.push(child);
      }
    }
  }
}

/** The names of a qualified name list ([{ String: { sval } }, …]). */
export const namesOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((item) => String((item as { String?: { sval?: string } }).String?.sval ?? '')) : [];
