import { ALERT_EVENTS, type AlertEventKind } from '../alert-events.js';
import type { SimulatedCluster } from './fleet.js';
import { randomFrom, seedOf } from './prng.js';
import type { SimulatedTable } from './table-catalogue.js';
import { queryIdOf, SLOT_SECONDS } from './workload.js';

/**
 * Performance alert events of a simulated cluster, drawn per hour from a generator seeded by
 * (cluster, hour). A table's traits steer which events it raises: stale statistics raise
 * "missing statistics", deleted rows raise "scanned deleted rows", and so on, as on a real cluster.
 */

export interface SimulatedAlertEvent {
  table: SimulatedTable;
  kind: AlertEventKind;
  at: number;
  queryId: number;
}

const HOUR = 3600;

function eventWeights(table: SimulatedTable): [AlertEventKind, number][] {
  return [
    ['missing_statistics', 0.5 + table.maxStatsOff / 10],
    ['deleted_rows', 0.2 + table.maxGhostPct / 5],
    ['selective_filter', table.sortkey1 === '' || table.sortkey1 === 'AUTO(SORTKEY)' ? 2 : 0.4],
    ['distributed_rows', table.distStyle.includes('EVEN') ? 2 : 0.3],
    ['broadcast_rows', table.kind === 'dim' && !table.distStyle.includes('ALL') ? 2.5 : 0.2],
    ['nested_loop', 0.15],
  ];
}

/** Events with fromSeconds <= at <= toSeconds, oldest hour first. */
export function alertEventsBetween(
  cluster: SimulatedCluster,
  tables: readonly SimulatedTable[],
  fromSeconds: number,
  toSeconds: number,
): SimulatedAlertEvent[] {
  if (tables.length === 0) return [];
  const tableWeights = tables.map((table) => [table, table.alertProneness] as const);
  const events: SimulatedAlertEvent[] = [];
  for (let hour = Math.floor(fromSeconds / HOUR); hour <= Math.floor(toSeconds / HOUR); hour++) {
    const random = randomFrom(seedOf(cluster.id, 'alerts', hour));
    const count = random.int(0, 3) + (random.chance(0.1) ? random.int(2, 6) : 0);
    for (let i = 0; i < count; i++) {
      const table = random.weighted(tableWeights);
      const kind = random.weighted(eventWeights(table));
      const at = hour * HOUR + random.next() * HOUR;
      // The query that raised it: an id from the workload slot of that minute.
      const queryId = queryIdOf(cluster, Math.floor(at / SLOT_SECONDS), random.int(0, 7));
      if (at >= fromSeconds && at <= toSeconds) events.push({ table, kind, at, queryId });
    }
  }
  return events;
}

export interface AlertSummary {
  table: SimulatedTable;
  event: string;
  solution: string;
  count: number;
  lastSeen: number;
  sampleQueryId: number;
}

/** One summary per (table, event): how often, when last, and the query behind the latest one. */
export function summarizeAlerts(events: readonly SimulatedAlertEvent[]): AlertSummary[] {
  const byKey = new Map<string, AlertSummary>();
  for (const event of events) {
    const key = `${event.table.schema}.${event.table.name}\u0000${event.kind}`;
    const summary = byKey.get(key);
    if (!summary) {
      const { event: text, solution } = ALERT_EVENTS[event.kind];
      byKey.set(key, {
        table: event.table,
        event: text,
        solution,
        count: 1,
        lastSeen: event.at,
        sampleQueryId: event.queryId,
      });
    } else {
      summary.count += 1;
      if (event.at > summary.lastSeen) {
        summary.lastSeen = event.at;
        summary.sampleQueryId = event.queryId;
      }
    }
  }
  return [...byKey.values()];
}
