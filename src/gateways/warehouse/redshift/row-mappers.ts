import { solutionForEvent } from '../alert-events.js';
import type {
  ClusterHealth,
  SlowQuery,
  SpillQuery,
  StorageTable,
  TableAlert,
  VacuumCandidate,
  WarehouseKind,
} from '../port.js';
import { ghostRowsPct, roundTo, vacuumRecommendation } from '../table-health.js';
import { clusterCapacityMb } from './cluster-capacity.js';
import { integerOf, isoTimestampOf, numberOf, textOf, type ResultRow } from './result-rows.js';

/** Result rows (column names fixed by sql/warehouse-sql.ts) → the port's records. */

const MB_PER_GB = 1024;

export function clusterHealthFrom(rows: readonly ResultRow[], clusterId: string, kind: WarehouseKind): ClusterHealth {
  const nodes = rows.map((row) => {
    const capacityMb = row['capacity_mb'] === null ? null : numberOf(row, 'capacity_mb');
    const usedGb = roundTo(numberOf(row, 'used_mb') / MB_PER_GB, 2);
    const capacityGb = capacityMb === null ? null : roundTo(capacityMb / MB_PER_GB, 2);
    return {
      cluster_id: clusterId,
      id: kind === 'serverless' ? clusterId : textOf(row, 'node_id'),
      role:
        kind === 'serverless'
          ? ('serverless' as const)
          : rows.length === 1
            ? ('shared' as const)
            : ('compute' as const),
      slices: integerOf(row, 'slices'),
      capacity_gb: capacityGb,
      used_gb: usedGb,
      pct_used: capacityGb ? roundTo((usedGb * 100) / capacityGb, 2) : null,
    };
  });
  const capacitiesMb = rows.map((row) => (row['capacity_mb'] === null ? null : numberOf(row, 'capacity_mb')));
  const bounded = capacitiesMb.every((mb) => mb !== null) && nodes.length > 0;
  // RA3 nodes each report the cluster's whole managed quota: counted once (cluster-capacity.ts).
  const capacity = bounded ? roundTo(clusterCapacityMb(capacitiesMb as number[]) / MB_PER_GB, 2) : null;
  const used = roundTo(
    nodes.reduce((sum, node) => sum + node.used_gb, 0),
    2,
  );
  const totals = {
    node_count: kind === 'serverless' ? 0 : nodes.length,
    slices: nodes.reduce((sum, node) => sum + node.slices, 0),
    capacity_gb: capacity,
    used_gb: used,
    pct_used: capacity ? roundTo((used * 100) / capacity, 2) : null,
  };
  return { clusters: [{ cluster_id: clusterId, kind, node_type: null, ...totals }], nodes, totals };
}

export const slowQueryFrom =
  (clusterId: string) =>
  (row: ResultRow): SlowQuery => ({
    query_id: integerOf(row, 'query_id'),
    exec_time_seconds: integerOf(row, 'exec_time_seconds'),
    user_name: textOf(row, 'user_name'),
    database: textOf(row, 'database'),
    wlm_queue: textOf(row, 'wlm_queue'),
    query_text: textOf(row, 'query_text'),
    cluster_id: clusterId,
  });

export const spillQueryFrom =
  (clusterId: string) =>
  (row: ResultRow): SpillQuery => ({
    query_id: integerOf(row, 'query_id'),
    user_name: textOf(row, 'user_name'),
    spill_mb: integerOf(row, 'spill_mb'),
    exec_time_seconds: integerOf(row, 'exec_time_seconds'),
    query_text: textOf(row, 'query_text'),
    cluster_id: clusterId,
  });

function tableFigures(row: ResultRow) {
  const tblRows = integerOf(row, 'tbl_rows');
  return {
    schema: textOf(row, 'schema'),
    table_name: textOf(row, 'table_name'),
    size_mb: integerOf(row, 'size_mb'),
    tbl_rows: tblRows,
    unsorted_pct: roundTo(numberOf(row, 'unsorted_pct'), 2),
    stats_off: roundTo(numberOf(row, 'stats_off'), 2),
    pct_ghost_rows: ghostRowsPct(tblRows, numberOf(row, 'estimated_visible_rows')),
  };
}

export const vacuumCandidateFrom =
  (clusterId: string) =>
  (row: ResultRow): VacuumCandidate => {
    const figures = tableFigures(row);
    return { ...figures, recommendation: vacuumRecommendation(figures), cluster_id: clusterId };
  };

export const storageTableFrom =
  (clusterId: string) =>
  (row: ResultRow): StorageTable => {
    const { stats_off: _statsOff, ...figures } = tableFigures(row);
    return {
      ...figures,
      dist_style: textOf(row, 'dist_style'),
      sortkey1: textOf(row, 'sortkey1'),
      cluster_id: clusterId,
    };
  };

export const tableAlertFrom =
  (clusterId: string) =>
  (row: ResultRow): TableAlert => {
    const event = textOf(row, 'event');
    return {
      schema: textOf(row, 'schema'),
      table_name: textOf(row, 'table_name'),
      event,
      solution: textOf(row, 'solution') || solutionForEvent(event),
      count: integerOf(row, 'count'),
      last_seen: isoTimestampOf(row, 'last_seen'),
      sample_query_id: integerOf(row, 'sample_query_id'),
      cluster_id: clusterId,
    };
  };
