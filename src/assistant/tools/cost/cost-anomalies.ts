import { z } from 'zod';
import type { CostPort } from '../../../gateways/cost/port.js';
import { defineTool } from '../../tool.js';
import { costScope, rangeInput, rangeOutput, resolveRange, refreshWarning } from './cost-range.js';

/** Days whose per-service spend left its trailing baseline: spikes worth explaining. */
export function costAnomaliesTool(cost: CostPort) {
  return defineTool({
    name: 'cost_anomalies',
    family: 'cost',
    description:
      "Cost anomalies: days in a date range on which a service's spend deviated from its trailing mean (over `baseline_days` before that day) by more than `threshold` standard deviations. Each anomaly gives the day, service, cost, baseline mean and how many standard deviations away it was.",
    input: z
      .object({
        ...rangeInput,
        baseline_days: z
          .number()
          .int()
          .min(7)
          .max(90)
          .default(28)
          .describe('trailing days each day is compared with (7-90)'),
        threshold: z.number().min(1).max(10).default(3).describe('standard deviations that count as an anomaly (1-10)'),
      })
      .strict(),
    output: z.object({
      ...rangeOutput,
      baseline_days: z.number(),
      threshold: z.number(),
      anomalies: z.array(
        z.object({
          date: z.string(),
          service: z.string(),
          cost: z.number(),
          baseline_mean: z.number(),
          baseline_std_dev: z.number(),
          deviations: z.number(),
        }),
      ),
    }),
    example: { from: '2026-01-01', to: '2026-10-31', baseline_days: 28, threshold: 3 },
    async run(input, scope) {
      const range = resolveRange(input, scope);
      const [rows, warning] = await Promise.all([
        cost.anomalies(costScope(scope), { ...range, baselineDays: input.baseline_days, threshold: input.threshold }),
        refreshWarning(cost),
      ]);
      return {
        ...range,
        currency: 'USD' as const,
        baseline_days: input.baseline_days,
        threshold: input.threshold,
        anomalies: rows.map((row) => ({
          date: row.date,
          service: row.service,
          cost: row.cost,
          baseline_mean: row.baselineMean,
          baseline_std_dev: row.baselineStdDev,
          deviations: row.deviations,
        })),
        ...warning,
      };
    },
  });
}
