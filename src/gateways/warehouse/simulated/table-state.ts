import { roundTo } from '../table-health.js';
import type { SimulatedTable } from './table-catalogue.js';

/**
 * A simulated table's figures at an instant. Everything is a continuous function of time, so the
 * figures drift second by second: rows accumulate until the retention job trims them, unsorted
 * and deleted rows build up until the next automatic vacuum, statistics go stale until ANALYZE.
 */

export interface TableFigures {
  tbl_rows: number;
  size_mb: number;
  unsorted_pct: number;
  pct_ghost_rows: number;
  stats_off: number;
}

const HOUR = 3600;
const DAY = 86_400;

/** Position within a repeating cycle, 0 (just reset) to 1 (about to reset). */
function cycleFraction(atSeconds: number, cycleSeconds: number, phaseSeconds: number): number {
  const position = (atSeconds + phaseSeconds) % cycleSeconds;
  return position / cycleSeconds;
}

export function tableFiguresAt(table: SimulatedTable, atSeconds: number, clusterSlices: number): TableFigures {
  const phase = table.phaseHours * HOUR;
  const retention = cycleFraction(atSeconds, table.retentionDays * DAY, phase);
  const liveRows = table.baseRows * (1 + table.retentionGrowth * retention);
  const sinceVacuum = cycleFraction(atSeconds, table.vacuumCycleHours * HOUR, phase);
  const ghostPct = table.maxGhostPct * sinceVacuum;
  // Deleted rows still occupy blocks until the vacuum reclaims them.
  const storedRows = Math.floor(liveRows / (1 - ghostPct / 100));
  // Redshift allocates at least one 1 MB block per column per slice, even for a tiny table.
  const minimumMb = table.columns * clusterSlices;
  const dataMb = (storedRows * table.rowWidthBytes) / 1_048_576;
  return {
    tbl_rows: storedRows,
    size_mb: Math.max(minimumMb, Math.ceil(dataMb)),
    unsorted_pct: table.sortkey1 === '' ? 0 : roundTo(table.maxUnsortedPct * sinceVacuum, 2),
    pct_ghost_rows: roundTo(ghostPct, 2),
    stats_off: roundTo(table.maxStatsOff * cycleFraction(atSeconds, table.analyzeCycleHours * HOUR, phase / 2), 2),
  };
}
