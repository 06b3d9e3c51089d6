import { z } from 'zod';
import { isoDay, type CostPort } from '../../../gateways/cost/port.js';
import { defineTool } from '../../tool.js';
import { CURRENCY, costScope, today, refreshWarning, warningOutput } from './cost-range.js';

/** Where this month's bill will land if spend goes on as in the last week. */
export function monthEndForecastTool(cost: CostPort) {
  return defineTool({
    name: 'month_end_forecast',
    family: 'cost',
    description:
      "Forecast of the month's total spend: month-to-date actuals through `as_of` plus the mean daily spend of the 7 days ending `as_of` for each remaining day. The answer states its method.",
    input: z.object({ as_of: isoDay.optional().describe('YYYY-MM-DD, not after today. Default: today.') }).strict(),
    output: z.object({
      month: z.string(),
      as_of: z.string(),
      currency: z.literal(CURRENCY),
      month_to_date: z.number(),
      trailing_daily_mean: z.number(),
      remaining_days: z.number().int(),
      forecast: z.number(),
      method: z.string(),
      ...warningOutput,
    }),
    example: { as_of: '2026-10-15' },
    async run(input, scope) {
      const last = today(scope);
      const asOf = input.as_of ?? last;
      if (asOf > last) throw new RangeError(`as_of (${asOf}) is after today (${last})`);
      const [forecast, warning] = await Promise.all([
        cost.forecastMonthEnd(costScope(scope), { asOf }),
        refreshWarning(cost),
      ]);
      return {
        month: forecast.month,
        as_of: forecast.asOf,
        currency: CURRENCY,
        month_to_date: forecast.monthToDate,
        trailing_daily_mean: forecast.trailingDailyMean,
        remaining_days: forecast.remainingDays,
        forecast: forecast.forecast,
        method: forecast.method,
        ...warning,
      };
    },
  });
}
