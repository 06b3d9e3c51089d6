import {
  detectAnomalies,
  fillTrend,
  forecastMonthEnd,
  forecastWindow,
  anomalyWindow,
  largestFirst,
} from '../analysis.js';
import {
  anomalyQuestion,
  dateRangeQuestion,
  forecastQuestion,
  topDriversQuestion,
  trendQuestion,
  type CostPort,
  type EnvironmentScope,
} from '../port.js';
import { generateLineItems, type CurLineItem } from './line-items.js';

/**
 * The default cost store: answers from the generated bill (line-items.ts) with plain in-memory
 * sums. It aggregates exactly what the Athena adapter's SQL aggregates and hands the rows to the
 * same shared arithmetic (analysis.ts), so a question means the same thing on either store.
 */

/** Sums cost by a key; the key's parts are joined with a separator no CUR value contains. */
export function sumBy(items: CurLineItem[], key: (item: CurLineItem) => string[]): { key: string[]; cost: number }[] {
  const sums = new Map<string, { key: string[]; cost: number }>();
  for (const item of items) {
    const parts = key(item);
    const id = parts.join('\u0000');
    const entry = sums.get(id) ?? { key: parts, cost: 0 };
    entry.cost += item.cost;
    sums.set(id, entry);
  }
  return [...sums.values()];
}

const REDSHIFT = 'AmazonRedshift';

export function createEmbeddedCostStore(): CostPort {
  return {
    async costByService(scope, input) {
      const q = dateRangeQuestion.parse(input);
      const rows = sumBy(generateLineItems(scope, q.from, q.to), (item) => [item.productCode]);
      return largestFirst(
        rows.map((row) => ({ service: row.key[0]!, cost: row.cost })),
        (row) => row.service,
      );
    },

    async costTrend(scope, input) {
      const q = trendQuestion.parse(input);
      const period = (item: CurLineItem) => (q.granularity === 'daily' ? item.day : item.day.slice(0, 7));
      const rows = sumBy(generateLineItems(scope, q.from, q.to), (item) => [period(item)]);
      return fillTrend(
        rows.map((row) => ({ period: row.key[0]!, cost: row.cost })),
        q.from,
        q.to,
        q.granularity,
      );
    },

    async redshiftBreakdown(scope, input) {
      const q = dateRangeQuestion.parse(input);
      const items = generateLineItems(scope, q.from, q.to).filter((item) => item.productCode === REDSHIFT);
      const rows = sumBy(items, (item) => [item.usageType]);
      return largestFirst(
        rows.map((row) => ({ usageType: row.key[0]!, cost: row.cost })),
        (row) => row.usageType,
      );
    },

    async topCostDrivers(scope, input) {
      const q = topDriversQuestion.parse(input);
      const rows = sumBy(generateLineItems(scope, q.from, q.to), (item) => [item.productCode, item.usageType]);
      return largestFirst(
        rows.map((row) => ({ service: row.key[0]!, usageType: row.key[1]!, cost: row.cost })),
        (row) => `${row.service}/${row.usageType}`,
      ).slice(0, q.limit);
    },

    async anomalies(scope, input) {
      const q = anomalyQuestion.parse(input);
      const window = anomalyWindow(q);
      const rows = sumBy(generateLineItems(scope, window.from, window.to), (item) => [item.day, item.productCode]);
      return detectAnomalies(
        rows.map((row) => ({ day: row.key[0]!, service: row.key[1]!, cost: row.cost })),
        q,
      );
    },

    async forecastMonthEnd(scope: EnvironmentScope, input) {
      const q = forecastQuestion.parse(input);
      const window = forecastWindow(q.asOf);
      const rows = sumBy(generateLineItems(scope, window.from, window.to), (item) => [item.day]);
      return forecastMonthEnd(
        rows.map((row) => ({ day: row.key[0]!, cost: row.cost })),
        q.asOf,
      );
    },

    // The generated bill is never being rewritten.
    async dataStatus() {
      return { state: 'ready' };
    },
  };
}
