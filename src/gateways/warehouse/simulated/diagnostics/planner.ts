import { UnknownRelationError } from '../../diagnostics.js';
import { planLayout } from '../../plan-layout.js';
import type { TableFigures } from '../table-state.js';
import type { SimulatedTable } from '../table-catalogue.js';

/**
 * A small planner for the simulated warehouse: it reads which tables a SELECT scans (FROM and JOIN
 * clauses), looks them up in the cluster's catalogue and lays out the plan Redshift would show:
 * sequential scans sized by the tables' current rows, hash joins whose distribution step follows
 * the tables' distribution styles (co-located keys, DISTSTYLE ALL, or a broadcast/redistribution),
 * then aggregate, sort and limit. It is not a SQL parser; the text has already passed the
 * read-only SELECT check.
 */

export interface PlannedTable {
  table: SimulatedTable;
  figures: TableFigures;
  alias: string;
}

interface PlanNode {
  text: string;
  rows: number;
  cost: number;
  width: number;
  info: string[];
  children: PlanNode[];
}

const REFERENCE =
  /\b(?:from|join)\s+("?[A-Za-z_][\w$]*"?(?:\s*\.\s*"?[A-Za-z_][\w$]*"?)?)(?:\s+(?:as\s+)?([A-Za-z_]\w*))?/gi;
const NOT_ALIAS = new Set([
  'where',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'on',
  'using',
  'group',
  'order',
  'limit',
  'union',
  'natural',
  'having',
]);
const CTE_NAME = /(?:\bwith|,)\s*([A-Za-z_]\w*)\s+as\s*\(/gi;

/** The catalogue tables a statement reads, in the order it names them; throws for an unknown one. */
export function referencedTables(
  statement: string,
  catalogue: readonly { table: SimulatedTable; figures: TableFigures }[],
): PlannedTable[] {
  const ctes = new Set([...statement.matchAll(CTE_NAME)].map((m) => m[1]!.toLowerCase()));
  const found: PlannedTable[] = [];
  for (const match of statement.matchAll(REFERENCE)) {
    const parts = match[1]!
      .replace(/"/g, '')
      .split('.')
      .map((part) => part.trim().toLowerCase());
    const [schema, name] = parts.length === 2 ? parts : [undefined, parts[0]!];
    if (schema === undefined && ctes.has(name!)) continue;
    const entry = catalogue.find(
      ({ table }) => table.name === name && (schema === undefined || table.schema === schema),
    );
    if (!entry) throw new UnknownRelationError(parts.join('.'));
    const alias = match[2] && !NOT_ALIAS.has(match[2].toLowerCase()) ? match[2] : entry.table.name;
    found.push({ ...entry, alias });
  }
  return found;
}

const keyOf = (table: SimulatedTable) => /^KEY\((\w+)\)$/.exec(table.distStyle)?.[1];

/** How Redshift would bring the inner table's rows to the outer's slices. */
export function joinDistribution(
  outer: SimulatedTable,
  inner: SimulatedTable,
  outerRows: number,
  innerRows: number,
): string {
  if (inner.distStyle.includes('ALL')) return 'DS_DIST_ALL_NONE';
  if (keyOf(outer) !== undefined && keyOf(outer) === keyOf(inner)) return 'DS_DIST_NONE';
  if (innerRows * 10 < outerRows) return 'DS_BCAST_INNER';
  return keyOf(outer) === inner.key ? 'DS_DIST_INNER' : 'DS_DIST_BOTH';
}

/** The WHERE clause of the outermost query, as the scan's filter line shows it (cut at 200 characters). */
function whereClause(statement: string): string | undefined {
  const match = /\bwhere\b([\s\S]*?)(?:\bgroup\s+by\b|\border\s+by\b|\blimit\b|\bunion\b|$)/i.exec(statement);
  const clause = match?.[1]?.replace(/\s+/g, ' ').trim();
  return clause ? clause.slice(0, 200) : undefined;
}

function scan(planned: PlannedTable, filter: string | undefined): PlanNode {
  const rows = Math.max(1, Math.round(planned.figures.tbl_rows * (filter ? 0.1 : 1)));
  const label = planned.alias === planned.table.name ? planned.table.name : `${planned.table.name} ${planned.alias}`;
  return {
    text: `XN Seq Scan on ${label}`,
    rows,
    cost: planned.figures.tbl_rows * 0.01,
    width: planned.table.columns * 8,
    info: filter ? [`Filter: (${filter})`] : [],
    children: [],
  };
}

function join(outer: PlanNode, outerTable: PlannedTable, inner: PlannedTable): PlanNode {
  const innerScan = scan(inner, undefined);
  const distribution = joinDistribution(outerTable.table, inner.table, outer.rows, innerScan.rows);
  // Moving rows costs: Redshift's estimates grow by orders of magnitude for a broadcast or redistribution.
  const movement =
    distribution === 'DS_BCAST_INNER'
      ? innerScan.rows * 1000
      : distribution.startsWith('DS_DIST_BOTH')
        ? (outer.rows + innerScan.rows) * 100
        : distribution === 'DS_DIST_INNER'
          ? innerScan.rows * 100
          : 0;
  const hash: PlanNode = {
    text: 'XN Hash',
    rows: innerScan.rows,
    cost: innerScan.cost,
    width: innerScan.width,
    info: [],
    children: [innerScan],
  };
  return {
    text: `XN Hash Join ${distribution}`,
    rows: outer.rows,
    cost: outer.cost + hash.cost + movement,
    width: outer.width + innerScan.width,
    info: [`Hash Cond: ("outer".${inner.table.key} = "inner".${inner.table.key})`],
    children: [outer, hash],
  };
}

function wrap(child: PlanNode, text: string, rows = child.rows, info: string[] = []): PlanNode {
  return { text, rows, cost: child.cost + rows * 0.01, width: child.width, info, children: [child] };
}

function render(node: PlanNode, depth = 0): string[] {
  const text = `${node.text}  (cost=0.00..${node.cost.toFixed(2)} rows=${node.rows} width=${node.width})`;
  return [...planLayout(depth, text, node.info), ...node.children.flatMap((child) => render(child, depth + 1))];
}

/** The EXPLAIN lines of a SELECT over the given tables (as referencedTables found them). */
export function planLines(statement: string, tables: readonly PlannedTable[]): string[] {
  const text = statement.toLowerCase();
  if (tables.length === 0) return ['XN Result  (cost=0.00..0.01 rows=1 width=0)'];
  let node = scan(tables[0]!, whereClause(statement));
  for (const inner of tables.slice(1)) node = join(node, tables[0]!, inner);
  if (/\bgroup\s+by\b/.test(text)) node = wrap(node, 'XN HashAggregate', Math.max(1, Math.min(node.rows, 5000)));
  if (/\border\s+by\b/.test(text)) {
    node = wrap(
      wrap(wrap(node, 'XN Sort', node.rows, ['Sort Key: 1']), 'XN Network', node.rows, ['Send to leader']),
      'XN Merge',
      node.rows,
      ['Merge Key: 1'],
    );
  }
  const limit = /\blimit\s+(\d+)/.exec(text);
  if (limit) node = wrap(node, 'XN Limit', Math.min(node.rows, Number(limit[1])));
  return render(node);
}
