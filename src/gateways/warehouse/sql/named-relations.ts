/**
 * The tables and views a parsed SELECT reads, with each reference to one of its own CTEs left out,
 * by the scope rules PostgreSQL (and Redshift) apply: a WITH clause's names are visible in its
 * SELECT and everything nested in it; inside the WITH list a CTE's body sees the CTEs before it,
 * not itself nor later ones (all of them, itself included, under WITH RECURSIVE). A flat set of
 * every CTE name in the statement would let a real table hide behind a CTE of the same name
 * (`WITH pg_user AS (SELECT * FROM pg_user) …`: the body reads the table) or behind a CTE declared
 * in some other subquery.
 */
import type { TreeNode } from './parse-tree.js';

/** A RangeVar as parsed: its catalog, schema and relation names (absent parts undefined). */
export type RangeVarNode = TreeNode;

interface Pending {
  value: unknown;
  /** The CTE names visible here (lower-case, as the parser folds unquoted names; quoted ones kept). */
  scope: ReadonlySet<string>;
}

const cteName = (cte: unknown) => String(((cte as { CommonTableExpr?: TreeNode }).CommonTableExpr ?? {}).ctename ?? '');

/** Every RangeVar the statement reads from a table or view (not from one of its CTEs in scope there). */
export function tableReferences(statement: unknown): RangeVarNode[] {
  const found: RangeVarNode[] = [];
  const pending: Pending[] = [{ value: statement, scope: new Set() }];
  while (pending.length > 0) {
    const { value, scope } = pending.pop()!;
    if (Array.isArray(value)) {
      for (const item of value) pending.push({ value: item, scope });
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (key === 'RangeVar') {
        const node = child as TreeNode;
        const unqualified = node.schemaname === undefined && node.catalogname === undefined;
        if (!(unqualified && scope.has(String(node.relname)))) found.push(node);
        continue;
      }
      if (key === 'SelectStmt' && child && typeof child === 'object') {
        const { withClause: clause, ...rest } = child as TreeNode & {
          withClause?: { ctes?: unknown[]; recursive?: boolean };
        };
        const ctes = clause?.ctes ?? [];
        const names = ctes.map(cteName);
        ctes.forEach((cte, index) => {
          const visible = clause?.recursive ? names : names.slice(0, index);
          pending.push({
            value: (cte as { CommonTableExpr?: TreeNode }).CommonTableExpr?.ctequery,
            scope: new Set([...scope, ...visible]),
          });
        });
        pending.push({ value: rest, scope: names.length > 0 ? new Set([...scope, ...names]) : scope });
        continue;
      }
      pending.push({ value: child, scope });
    }
  }
  return found;
}
