import { z } from 'zod';

/**
 * The cost port: the typed questions the analytics assistant's cost tools may ask about cloud
 * spend. Callers never send SQL; each question is a validated value, and the environment it is
 * about comes from the caller's token (an `EnvironmentScope`), never from free text.
 *
 * Date semantics everywhere: `from` and `to` are ISO calendar days (UTC), both inclusive.
 * Amounts are USD rounded to cents.
 */

export interface EnvironmentScope {
  tenantId: string;
  environmentId: string;
}

const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused, not rolled over). */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date YYYY-MM-DD')
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a calendar day');

const dateRangeShape = { from: isoDay, to: isoDay };

// zod cannot see through the generic spread; every shape here does carry from/to.
const asRange = (value: unknown) => value as { from: string; to: string };

/** Bounded so one question cannot scan years of line items. */
function boundedRange<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ ...dateRangeShape, ...shape })
    .strict()
    .refine((range) => asRange(range).from <= asRange(range).to, {
      message: 'from must not be after to',
      path: ['from'],
    })
    .refine((range) => daysBetween(asRange(range).from, asRange(range).to) < MAX_RANGE_DAYS, {
      message: `a range covers at most ${MAX_RANGE_DAYS} days`,
      path: ['to'],
    });
}

export const dateRangeQuestion = boundedRange({});
export const trendQuestion = boundedRange({ granularity: z.enum(['daily', 'monthly']) });
export const topDriversQuestion = boundedRange({ limit: z.number().int().min(1).max(50).default(10) });
export const anomalyQuestion = boundedRange({
  /** Trailing days each day is compared with (excluding the day itself). */
  baselineDays: z.number().int().min(7).max(90).default(28),
  /** How many standard deviations away from the trailing mean counts as an anomaly. */
  threshold: z.number().min(1).max(10).default(3),
});
export const forecastQuestion = z.object({ asOf: isoDay }).strict();

export type DateRangeQuestion = z.input<typeof dateRangeQuestion>;
export type TrendQuestion = z.input<typeof trendQuestion>;
export type TopDriversQuestion = z.input<typeof topDriversQuestion>;
export type AnomalyQuestion = z.input<typeof anomalyQuestion>;
export type ForecastQuestion = z.input<typeof forecastQuestion>;

export interface ServiceCost {
  service: string;
  cost: number;
}
export interface TrendPoint {
  /** YYYY-MM-DD for daily points, YYYY-MM for monthly ones. */
  period: string;
  cost: number;
}
export interface UsageTypeCost {
  usageType: string;
  cost: number;
}
export interface CostDriver {
  service: string;
  usageType: string;
  cost: number;
}
export interface CostAnomaly {
  date: string;
  service: string;
  cost: number;
  baselineMean: number;
  baselineStdDev: number;
  /** Signed distance from the baseline mean in standard deviations (2 decimals). */
  deviations: number;
}
export interface MonthEndForecast {
  month: string;
  asOf: string;
  monthToDate: number;
  trailingDailyMean: number;
  remainingDays: number;
  forecast: number;
  method: string;
}

/**
 * Whether the report behind the answers is complete. AWS rewrites a Cost and Usage Report
 * several times a day; while it does, a query may read a mix of old and new line items.
 */
export interface CostDataStatus {
  state: 'ready' | 'updating' | 'unknown';
  /** For `unknown`: why no status could be read. */
  detail?: string;
}

export interface CostPort {
  /** Spend per service (CUR product code), largest first. */
  costByService(scope: EnvironmentScope, question: DateRangeQuestion): Promise<ServiceCost[]>;
  /** Total spend per day or per month, oldest first; days without spend are 0. */
  costTrend(scope: EnvironmentScope, question: TrendQuestion): Promise<TrendPoint[]>;
  /** Redshift spend per usage type (node hours, managed storage, concurrency scaling, Spectrum…). */
  redshiftBreakdown(scope: EnvironmentScope, question: DateRangeQuestion): Promise<UsageTypeCost[]>;
  /** The N largest (service, usage type) pairs. */
  topCostDrivers(scope: EnvironmentScope, question: TopDriversQuestion): Promise<CostDriver[]>;
  /** Days whose per-service spend deviates from its trailing mean by more than k std devs. */
  anomalies(scope: EnvironmentScope, question: AnomalyQuestion): Promise<CostAnomaly[]>;
  /** Month-to-date actuals plus the trailing-7-day daily mean for each remaining day. */
  forecastMonthEnd(scope: EnvironmentScope, question: ForecastQuestion): Promise<MonthEndForecast>;
  /** The report's refresh state; never throws (a status that cannot be read is `unknown`). */
  dataStatus(): Promise<CostDataStatus>;
}

export type CostQueryFailure = 'failed' | 'cancelled' | 'timeout' | 'unavailable';

/** A question that could not be answered; `reason` is the store's own words (Athena's, say). */
export class CostQueryError extends Error {
  constructor(
    readonly failure: CostQueryFailure,
    readonly reason: string,
  ) {
    super(`cost query ${failure}: ${reason}`);
    this.name = 'CostQueryError';
  }
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export const roundCents = (amount: number): number => Math.round((amount + Number.EPSILON) * 100) / 100;
