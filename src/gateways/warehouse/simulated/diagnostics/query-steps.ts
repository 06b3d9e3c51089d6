import type { QueryStep } from '../../diagnostics.js';
import { roundTo } from '../../table-health.js';
import { randomFrom, seedOf } from '../prng.js';
import type { SimulatedTable } from '../table-catalogue.js';
import type { TableFigures } from '../table-state.js';
import type { SimulatedQuery } from '../workload.js';
import { referencedTables } from './planner.js';

/**
 * The execution steps of a simulated query, as svl_query_summary lists them: a scan per table it
 * reads, a hash of each joined table, the join, then aggregate/sort and the final return (or the
 * insert of a load). The time executed so far is shared out over the steps; the memory-hungry
 * steps (hash, aggregate, sort) are disk-based when the query spills.
 */

const WRITE_TARGET = /^INSERT INTO (\w+)\.(\w+) /;

export function querySteps(
  query: SimulatedQuery,
  text: string,
  catalogue: readonly { table: SimulatedTable; figures: TableFigures }[],
  executedSeconds: number,
): QueryStep[] {
  const random = randomFrom(seedOf(query.clusterId, 'steps', query.queryId));
  const select = text.replace(WRITE_TARGET, '');
  let tables: ReturnType<typeof referencedTables>;
  try {
    tables = referencedTables(select, catalogue);
  } catch {
    tables = [];
  }
  const drafts: Omit<QueryStep, 'max_seconds' | 'segment' | 'step'>[] = [];
  const spills = query.spillMb > 0;
  let rows = 0;
  tables.forEach(({ table, figures }, index) => {
    const scanned = Math.round(
      figures.tbl_rows * (index === 0 && /\bwhere\b/i.test(select) ? random.between(0.02, 0.3) : 1),
    );
    drafts.push({
      label: 'scan',
      table_name: table.name,
      rows: scanned,
      bytes: scanned * table.rowWidthBytes,
      disk_based: false,
    });
    if (index === 0) rows = scanned;
    else
      drafts.push(
        { label: 'hash', table_name: null, rows: scanned, bytes: scanned * 16, disk_based: spills },
        { label: 'hjoin', table_name: null, rows, bytes: rows * 32, disk_based: false },
      );
  });
  if (/\bgroup\s+by\b/i.test(select)) {
    rows = Math.max(1, Math.min(rows, random.int(10, 5000)));
    drafts.push({ label: 'aggr', table_name: null, rows, bytes: rows * 24, disk_based: spills });
  }
  if (/\border\s+by\b/i.test(select))
    drafts.push({
      label: 'sort',
      table_name: null,
      rows,
      bytes: rows * 24,
      disk_based: spills && !/\bgroup\s+by\b/i.test(select),
    });
  const target = WRITE_TARGET.exec(text);
  drafts.push(
    target
      ? { label: 'insert', table_name: target[2]!, rows, bytes: rows * 64, disk_based: false }
      : { label: 'return', table_name: null, rows, bytes: rows * 32, disk_based: false },
  );

  // Weights, not shares: scans and spilling steps take most of the time.
  const weights = drafts.map((d) => (d.label === 'scan' ? 3 : d.disk_based ? 4 : 1) * random.between(0.6, 1.4));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return drafts.map((draft, index) => ({
    ...draft,
    // A segment groups the steps one slice runs without passing rows on: here, one per table read, then one for the rest.
    segment: Math.min(index, tables.length),
    step: index,
    max_seconds: roundTo((Math.max(0, executedSeconds) * weights[index]!) / total, 3),
  }));
}
