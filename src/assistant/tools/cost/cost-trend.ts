import { z } from 'zod';
import type { CostPort } from '../../../gateways/cost/port.js';
import { defineTool } from '../../tool.js';
import { costScope, rangeInput, rangeOutput, resolveRange, sumCosts, refreshWarning } from './cost-range.js';

/** Default ranges: a month of days, or half a year of months. */
const DEFAULT_DAYS = { daily: 30, monthly: 180 } as const;

/** Total spend per day or per month: is spend growing, and since when. */
export function costTrendTool(cost: CostPort) {
  return defineTool({
    name: 'cost_trend',
    family: 'cost',
    description:
      'Total cloud spend per day or per month over a date range, oldest first; days without spend read 0. Use it to see whether spend is growing and when a change started. Default range: the last 30 days (daily) or 180 days (monthly).',
    input: z
      .object({
        ...rangeInput,
        granularity: z.enum(['daily', 'monthly']).default('daily').describe('daily or monthly points'),
      })
      .strict(),
    output: z.object({
      ...rangeOutput,
      granularity: z.enum(['daily', 'monthly']),
      total: z.number(),
      points: z.array(z.object({ period: z.string(), cost: z.number() })),
    }),
    example: { from: '2026-05-01', to: '2026-10-31', granularity: 'monthly' },
    async run(input, scope) {
      const range = resolveRange(input, scope, DEFAULT_DAYS[input.granularity]);
      const [points, warning] = await Promise.all([
        cost.costTrend(costScope(scope), { ...range, granularity: input.granularity }),
        refreshWarning(cost),
      ]);
      return {
        ...range,
        currency: 'USD' as const,
        granularity: input.granularity,
        total: sumCosts(points),
        points,
        ...warning,
      };
    },
  });
}
