import { z } from 'zod';
import {
  TABLE_ALERT_LOOKBACK_DAYS,
  VACUUM_STATS_OFF_THRESHOLD_PCT,
  VACUUM_UNSORTED_THRESHOLD_PCT,
  type WarehouseGateway,
} from '../../../gateways/warehouse/port.js';
import { GHOST_ROWS_THRESHOLD_PCT, vacuumRecommendation } from '../../../gateways/warehouse/table-health.js';
import { defineTool } from '../../tool.js';
import { clusterId, identifier, isoTime, limit, ofCluster, round } from './shared.js';

/** Rows on the fullest slice over the emptiest: above this, a distribution key is worth a look. */
export const SKEW_ROWS_THRESHOLD = 2;

const tableFilter = {
  schema: identifier('schema').optional(),
  table_name: identifier('table name').optional(),
  cluster_id: clusterId.optional(),
};

const matches =
  (input: { schema?: string | undefined; table_name?: string | undefined }) =>
  (row: { schema: string; table_name: string }) =>
    (input.schema === undefined || row.schema.toLowerCase() === input.schema.toLowerCase()) &&
    (input.table_name === undefined || row.table_name.toLowerCase() === input.table_name.toLowerCase());

type Issue = 'unsorted' | 'stale_statistics' | 'skewed' | 'deleted_rows';

/** The fields every table answer shares: where it is, how big, how sorted, how laid out. */
const tableRowFields = {
  cluster_id: z.string(),
  schema: z.string(),
  table_name: z.string(),
  size_mb: z.number().min(0),
  tbl_rows: z.number().min(0),
  unsorted_pct: z.number(),
  pct_ghost_rows: z.number(),
  dist_style: z.string(),
  sortkey1: z.string(),
};

/** Table health: unsorted rows, stale statistics, skew and deleted rows, with the maintenance to run. Covers the vacuum candidates. */
export function tableHealthTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'table_health',
    family: 'warehouse',
    description: `Table health and vacuum candidates: per table, unsorted rows (%), stale statistics (stats_off %), row skew across slices (fullest/emptiest), deleted-but-not-reclaimed rows (%), the issues found (unsorted > ${VACUUM_UNSORTED_THRESHOLD_PCT} %, stats_off > ${VACUUM_STATS_OFF_THRESHOLD_PCT} %, skew > ${SKEW_ROWS_THRESHOLD}, deleted rows > ${GHOST_ROWS_THRESHOLD_PCT} %) and the maintenance to run (VACUUM variant, ANALYZE, distribution review). By default only tables with an issue, worst first.`,
    input: z
      .object({
        ...tableFilter,
        only_problems: z.boolean().default(true).describe('only tables with at least one issue'),
        order_by: z.enum(['unsorted', 'stats_off', 'skew', 'deleted_rows', 'size']).default('unsorted'),
        limit: limit(100, 20),
      })
      .strict(),
    output: z.object({
      total: z.number().int().min(0).describe('matching tables before the limit'),
      tables: z.array(
        z.object({
          ...tableRowFields,
          stats_off: z.number(),
          skew_rows: z.number(),
          issues: z.array(z.enum(['unsorted', 'stale_statistics', 'skewed', 'deleted_rows'])),
          recommendation: z.string(),
        }),
      ),
    }),
    example: { only_problems: true, order_by: 'unsorted', limit: 10 },
    async run(input, { envId }) {
      const [stats, storage] = await Promise.all([warehouse.tableStats(envId), warehouse.storage(envId)]);
      const key = (row: { cluster_id: string; schema: string; table_name: string }) =>
        `${row.cluster_id}\u0000${row.schema}\u0000${row.table_name}`;
      const layout = new Map(storage.map((row) => [key(row), row]));
      const rows = ofCluster(stats, input.cluster_id)
        .filter(matches(input))
        .map((table) => {
          const stored = layout.get(key(table));
          const pct_ghost_rows = stored?.pct_ghost_rows ?? 0;
          const issues: Issue[] = [];
          if (table.unsorted_pct > VACUUM_UNSORTED_THRESHOLD_PCT) issues.push('unsorted');
          if (table.stats_off > VACUUM_STATS_OFF_THRESHOLD_PCT) issues.push('stale_statistics');
          if (table.skew_rows > SKEW_ROWS_THRESHOLD) issues.push('skewed');
          if (pct_ghost_rows > GHOST_ROWS_THRESHOLD_PCT) issues.push('deleted_rows');
          const maintenance = vacuumRecommendation({
            unsorted_pct: table.unsorted_pct,
            stats_off: table.stats_off,
            pct_ghost_rows,
          });
          const steps = [
            ...(maintenance === 'none' ? [] : [maintenance]),
            ...(issues.includes('skewed') ? ['review the distribution key'] : []),
          ];
          return {
            ...table,
            unsorted_pct: round(table.unsorted_pct),
            stats_off: round(table.stats_off),
            skew_rows: round(table.skew_rows),
            pct_ghost_rows,
            dist_style: stored?.dist_style ?? '',
            sortkey1: stored?.sortkey1 ?? '',
            issues,
            recommendation: steps.length > 0 ? steps.join(' + ') : 'none',
          };
        })
        .filter((table) => !input.only_problems || table.issues.length > 0);
      const measure = {
        unsorted: 'unsorted_pct',
        stats_off: 'stats_off',
        skew: 'skew_rows',
        deleted_rows: 'pct_ghost_rows',
        size: 'size_mb',
      } as const;
      const field = measure[input.order_by];
      rows.sort((a, b) => b[field] - a[field] || a.table_name.localeCompare(b.table_name));
      return { total: rows.length, tables: rows.slice(0, input.limit) };
    },
  });
}

export function tableStorageTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'table_storage',
    family: 'warehouse',
    description:
      'The largest tables: size (MB), rows, unsorted and deleted-row percentages, distribution style and first sort key, largest first; with the size per schema and in all. Use it for "what takes the space" and before resizing.',
    input: z.object({ ...tableFilter, limit: limit(100, 20) }).strict(),
    output: z.object({
      total_size_mb: z.number().min(0),
      table_count: z.number().int().min(0),
      by_schema: z.array(z.object({ schema: z.string(), tables: z.number().int(), size_mb: z.number() })),
      tables: z.array(z.object(tableRowFields)),
    }),
    example: { schema: 'analytics', limit: 10 },
    async run(input, { envId }) {
      const tables = ofCluster(await warehouse.storage(envId), input.cluster_id).filter(matches(input));
      const schemas = new Map<string, { tables: number; size_mb: number }>();
      for (const table of tables) {
        const schema = schemas.get(table.schema) ?? { tables: 0, size_mb: 0 };
        schemas.set(table.schema, { tables: schema.tables + 1, size_mb: schema.size_mb + table.size_mb });
      }
      return {
        total_size_mb: tables.reduce((sum, table) => sum + table.size_mb, 0),
        table_count: tables.length,
        by_schema: [...schemas.entries()]
          .map(([schema, figures]) => ({ schema, ...figures }))
          .sort((a, b) => b.size_mb - a.size_mb),
        tables: tables.slice(0, input.limit),
      };
    },
  });
}

export function tableAlertsTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'table_alerts',
    family: 'warehouse',
    description: `Performance alerts the warehouse raised while running queries over the last ${TABLE_ALERT_LOOKBACK_DAYS} days, per table and alert (missing statistics, scanned deleted rows, broadcast or redistributed rows, nested loops, very selective filters): how often, when last, a sample query id, and the fix. Most frequent first.`,
    input: z
      .object({
        ...tableFilter,
        event_contains: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe('only alerts whose text contains this (case-insensitive)'),
        limit: limit(100, 20),
      })
      .strict(),
    output: z.object({
      lookback_days: z.number().int(),
      total: z.number().int().min(0),
      alerts: z.array(
        z.object({
          cluster_id: z.string(),
          schema: z.string(),
          table_name: z.string(),
          event: z.string(),
          solution: z.string(),
          count: z.number().int().min(1),
          last_seen: isoTime,
          sample_query_id: z.number().int(),
        }),
      ),
    }),
    example: { event_contains: 'statistics' },
    async run(input, { envId }) {
      const alerts = ofCluster(await warehouse.tableAlerts(envId), input.cluster_id)
        .filter(matches(input))
        .filter(
          (alert) =>
            input.event_contains === undefined ||
            alert.event.toLowerCase().includes(input.event_contains.toLowerCase()),
        );
      return { lookback_days: TABLE_ALERT_LOOKBACK_DAYS, total: alerts.length, alerts: alerts.slice(0, input.limit) };
    },
  });
}
