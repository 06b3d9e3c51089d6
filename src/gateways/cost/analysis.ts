import { addDays, daysBetween, roundCents, type CostAnomaly, type MonthEndForecast, type TrendPoint } from './port.js';

/**
 * The arithmetic both cost adapters share. Each adapter only aggregates line items (in memory or
 * in Athena SQL) into the rows below; ordering, zero-filling, rounding, anomaly detection and the
 * forecast happen here, so the two adapters cannot drift apart in what a question means.
 */

export interface DailyServiceCost {
  day: string;
  service: string;
  cost: number;
}
export interface DailyCost {
  day: string;
  cost: number;
}

/** Largest first; ties by name so both adapters list them in the same order. */
export function largestFirst<T extends { cost: number }>(rows: T[], name: (row: T) => string): T[] {
  return rows
    .map((row) => ({ ...row, cost: roundCents(row.cost) }))
    .sort((a, b) => b.cost - a.cost || name(a).localeCompare(name(b)));
}

export function trendPeriods(from: string, to: string, granularity: 'daily' | 'monthly'): string[] {
  const periods: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const period = granularity === 'daily' ? day : day.slice(0, 7);
    if (periods.at(-1) !== period) periods.push(period);
  }
  return periods;
}

/** Every period in the range appears, so a day without spend reads as 0 rather than missing. */
export function fillTrend(
  rows: TrendPoint[],
  from: string,
  to: string,
  granularity: 'daily' | 'monthly',
): TrendPoint[] {
  const byPeriod = new Map<string, number>();
  for (const row of rows) byPeriod.set(row.period, (byPeriod.get(row.period) ?? 0) + row.cost);
  return trendPeriods(from, to, granularity).map((period) => ({ period, cost: roundCents(byPeriod.get(period) ?? 0) }));
}

/** The days an anomaly question needs: the baseline before `from` as well as the range itself. */
export function anomalyWindow(question: { from: string; to: string; baselineDays: number }): {
  from: string;
  to: string;
} {
  return { from: addDays(question.from, -question.baselineDays), to: question.to };
}

/**
 * Per service, each day in [from, to] is compared with the `baselineDays` days before it (the
 * day itself excluded, so a spike cannot hide in its own baseline). Missing days count as 0.
 * Population standard deviation. A change smaller than 5% of the baseline mean is never an
 * anomaly: on a near-flat series (steady node hours) σ is tiny and rounding noise or slow growth
 * would otherwise count as many standard deviations.
 */
const MIN_RELATIVE_CHANGE = 0.05;

export function detectAnomalies(
  rows: DailyServiceCost[],
  question: { from: string; to: string; baselineDays: number; threshold: number },
): CostAnomaly[] {
  const window = anomalyWindow(question);
  const span = daysBetween(window.from, window.to) + 1;
  const series = new Map<string, number[]>();
  for (const row of rows) {
    const index = daysBetween(window.from, row.day);
    if (index < 0 || index >= span) continue;
    const values = series.get(row.service) ?? new Array<number>(span).fill(0);
    values[index] = (values[index] ?? 0) + row.cost;
    series.set(row.service, values);
  }
  const found: CostAnomaly[] = [];
  for (const [service, values] of series) {
    for (let index = question.baselineDays; index < span; index += 1) {
      const baseline = values.slice(index - question.baselineDays, index);
      const mean = baseline.reduce((sum, value) => sum + value, 0) / baseline.length;
      const variance = baseline.reduce((sum, value) => sum + (value - mean) ** 2, 0) / baseline.length;
      const stdDev = Math.sqrt(variance);
      const cost = values[index] ?? 0;
      const distance = Math.abs(cost - mean);
      if (stdDev === 0 || distance <= question.threshold * stdDev || distance < MIN_RELATIVE_CHANGE * mean) continue;
      found.push({
        date: addDays(window.from, index),
        service,
        cost: roundCents(cost),
        baselineMean: roundCents(mean),
        baselineStdDev: roundCents(stdDev),
        deviations: Math.round(((cost - mean) / stdDev) * 100) / 100,
      });
    }
  }
  return found.sort((a, b) => a.date.localeCompare(b.date) || a.service.localeCompare(b.service));
}

const TRAILING_DAYS = 7;

/** The days a forecast needs: month start (or 7 days back, if earlier) through `asOf`. */
export function forecastWindow(asOf: string): { from: string; to: string } {
  const monthStart = `${asOf.slice(0, 7)}-01`;
  const trailingStart = addDays(asOf, -(TRAILING_DAYS - 1));
  return { from: trailingStart < monthStart ? trailingStart : monthStart, to: asOf };
}

export const FORECAST_METHOD =
  'month-to-date actual spend (through asOf, inclusive) + mean daily spend of the 7 days ending asOf × days left in the month';

export function forecastMonthEnd(rows: DailyCost[], asOf: string): MonthEndForecast {
  const month = asOf.slice(0, 7);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const remainingDays = daysInMonth - Number(asOf.slice(8, 10));
  const trailingStart = addDays(asOf, -(TRAILING_DAYS - 1));
  let monthToDate = 0;
  let trailing = 0;
  for (const row of rows) {
    if (row.day > asOf) continue;
    if (row.day.startsWith(month)) monthToDate += row.cost;
    if (row.day >= trailingStart) trailing += row.cost;
  }
  const trailingDailyMean = trailing / TRAILING_DAYS;
  return {
    month,
    asOf,
    monthToDate: roundCents(monthToDate),
    trailingDailyMean: roundCents(trailingDailyMean),
    remainingDays,
    forecast: roundCents(monthToDate + trailingDailyMean * remainingDays),
    method: FORECAST_METHOD,
  };
}
