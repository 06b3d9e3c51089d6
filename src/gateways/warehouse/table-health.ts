import { VACUUM_STATS_OFF_THRESHOLD_PCT, VACUUM_UNSORTED_THRESHOLD_PCT } from './port.js';

/**
 * Table maintenance judgements shared by both adapters, so a table reads the same whether its
 * figures come from svv_table_info or from the simulator.
 */

/** Above this share of deleted-but-not-reclaimed rows a delete vacuum pays for itself. */
export const GHOST_ROWS_THRESHOLD_PCT = 10;

export interface TableMaintenanceFigures {
  unsorted_pct: number;
  stats_off: number;
  pct_ghost_rows: number;
}

export function needsVacuumOrAnalyze(table: Pick<TableMaintenanceFigures, 'unsorted_pct' | 'stats_off'>): boolean {
  return table.unsorted_pct > VACUUM_UNSORTED_THRESHOLD_PCT || table.stats_off > VACUUM_STATS_OFF_THRESHOLD_PCT;
}

/**
 * The command an operator would run: sort and delete work picks the VACUUM variant (FULL when
 * both are due, as one pass is cheaper than two), stale statistics add ANALYZE.
 */
export function vacuumRecommendation(table: TableMaintenanceFigures): string {
  const sortDue = table.unsorted_pct > VACUUM_UNSORTED_THRESHOLD_PCT;
  const deleteDue = table.pct_ghost_rows > GHOST_ROWS_THRESHOLD_PCT;
  const analyzeDue = table.stats_off > VACUUM_STATS_OFF_THRESHOLD_PCT;
  const steps: string[] = [];
  if (sortDue && deleteDue) steps.push('VACUUM FULL');
  else if (sortDue) steps.push('VACUUM SORT ONLY');
  else if (deleteDue) steps.push('VACUUM DELETE ONLY');
  if (analyzeDue) steps.push('ANALYZE');
  return steps.length > 0 ? steps.join(' + ') : 'none';
}

/** Ghost rows as svv_table_info exposes them: stored rows the planner no longer sees. */
export function ghostRowsPct(tblRows: number, estimatedVisibleRows: number): number {
  if (tblRows <= 0) return 0;
  return roundTo(Math.max(0, ((tblRows - estimatedVisibleRows) * 100) / tblRows), 2);
}

/** Most unsorted first, ties broken by staler statistics, then by name for a stable order. */
export function byUnsortedDescending<
  T extends { unsorted_pct: number; stats_off: number; schema: string; table_name: string },
>(a: T, b: T): number {
  return (
    b.unsorted_pct - a.unsorted_pct ||
    b.stats_off - a.stats_off ||
    a.schema.localeCompare(b.schema) ||
    a.table_name.localeCompare(b.table_name)
  );
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
