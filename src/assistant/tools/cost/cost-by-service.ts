import { z } from 'zod';
import type { CostPort } from '../../../gateways/cost/port.js';
import { defineTool } from '../../tool.js';
import { costScope, rangeInput, rangeOutput, resolveRange, sharePct, sumCosts, refreshWarning } from './cost-range.js';

/** Spend per AWS service over a range: where the money goes, largest first. */
export function costByServiceTool(cost: CostPort) {
  return defineTool({
    name: 'cost_by_service',
    family: 'cost',
    description:
      "Cloud spend per AWS service (Cost and Usage Report product code, e.g. AmazonRedshift, AmazonS3) over a date range, largest first, with each service's share of the total. Use it to see where the money goes.",
    input: z.object({ ...rangeInput }).strict(),
    output: z.object({
      ...rangeOutput,
      total: z.number(),
      services: z.array(z.object({ service: z.string(), cost: z.number(), share_pct: z.number() })),
    }),
    example: { from: '2026-10-01', to: '2026-10-31' },
    async run(input, scope) {
      const range = resolveRange(input, scope);
      const [rows, warning] = await Promise.all([cost.costByService(costScope(scope), range), refreshWarning(cost)]);
      const total = sumCosts(rows);
      return {
        ...range,
        currency: 'USD' as const,
        total,
        services: rows.map((row) => ({ service: row.service, cost: row.cost, share_pct: sharePct(row.cost, total) })),
        ...warning,
      };
    },
  });
}
