import { z } from 'zod';
import type { CostPort } from '../../../gateways/cost/port.js';
import { defineTool } from '../../tool.js';
import { costScope, rangeInput, rangeOutput, resolveRange, refreshWarning } from './cost-range.js';

/** The largest (service, usage type) pairs: the few lines that make most of the bill. */
export function topCostDriversTool(cost: CostPort) {
  return defineTool({
    name: 'top_cost_drivers',
    family: 'cost',
    description:
      'The largest cost drivers over a date range: (AWS service, usage type) pairs, largest first, at most `limit` of them. Use it to name the few line items that make most of the bill.',
    input: z
      .object({ ...rangeInput, limit: z.number().int().min(1).max(50).default(10).describe('how many drivers (1-50)') })
      .strict(),
    output: z.object({
      ...rangeOutput,
      drivers: z.array(z.object({ service: z.string(), usage_type: z.string(), cost: z.number() })),
    }),
    example: { from: '2026-10-01', to: '2026-10-31', limit: 5 },
    async run(input, scope) {
      const range = resolveRange(input, scope);
      const [rows, warning] = await Promise.all([
        cost.topCostDrivers(costScope(scope), { ...range, limit: input.limit }),
        refreshWarning(cost),
      ]);
      return {
        ...range,
        currency: 'USD' as const,
        drivers: rows.map((row) => ({ service: row.service, usage_type: row.usageType, cost: row.cost })),
        ...warning,
      };
    },
  });
}
