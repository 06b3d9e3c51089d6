import { z } from 'zod';
import type { CostPort } from '../../../gateways/cost/port.js';
import { defineTool } from '../../tool.js';
import { costScope, rangeInput, rangeOutput, resolveRange, sharePct, sumCosts, refreshWarning } from './cost-range.js';

/** CUR usage types read as what an operator calls them (`USE1-CS:ra3.4xlarge` is concurrency scaling). */
const CATEGORIES: [RegExp, string][] = [
  [/Node:/, 'node hours'],
  [/RMS:|ManagedStorage/, 'managed storage'],
  [/CS:|ConcurrencyScaling/, 'concurrency scaling'],
  [/Spectrum/, 'Spectrum scans'],
  [/Serverless|RPU/, 'serverless compute'],
  [/DataTransfer|Bytes/, 'data transfer'],
  [/Backup|Snapshot/, 'backup storage'],
];

export const usageCategory = (usageType: string): string =>
  CATEGORIES.find(([pattern]) => pattern.test(usageType))?.[1] ?? 'other';

/** Redshift spend per usage type: node hours against storage, concurrency scaling, Spectrum. */
export function redshiftCostBreakdownTool(cost: CostPort) {
  return defineTool({
    name: 'redshift_cost_breakdown',
    family: 'cost',
    description:
      'Amazon Redshift spend per usage type (node hours, managed storage, concurrency scaling, Spectrum scans, …) over a date range, largest first, with a plain category and share of the Redshift total. Use it to explain what drives the warehouse bill.',
    input: z.object({ ...rangeInput }).strict(),
    output: z.object({
      ...rangeOutput,
      total: z.number(),
      usage_types: z.array(
        z.object({ usage_type: z.string(), category: z.string(), cost: z.number(), share_pct: z.number() }),
      ),
    }),
    example: { from: '2026-10-01', to: '2026-10-31' },
    async run(input, scope) {
      const range = resolveRange(input, scope);
      const [rows, warning] = await Promise.all([
        cost.redshiftBreakdown(costScope(scope), range),
        refreshWarning(cost),
      ]);
      const total = sumCosts(rows);
      return {
        ...range,
        currency: 'USD' as const,
        total,
        usage_types: rows.map((row) => ({
          usage_type: row.usageType,
          category: usageCategory(row.usageType),
          cost: row.cost,
          share_pct: sharePct(row.cost, total),
        })),
        ...warning,
      };
    },
  });
}
