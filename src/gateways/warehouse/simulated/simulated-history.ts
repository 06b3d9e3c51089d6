/**
 * The simulated warehouse's history as a backtest source: every past instant is recomputed from the
 * seed (metric-history.ts), so there are no gaps in the past. Pins are live overrides and are not
 * history: a backtest sees the workload as the simulator models it.
 */
import type { MetricHistorySource } from '../../../process/backtest/history-port.js';
import { simulatedMetricSeries } from './metric-history.js';

export function simulatedHistorySource(): MetricHistorySource {
  return {
    name: 'simulator',
    async read({ envId, clusterId, metric, windowMinutes, instants }) {
      const seconds = instants.map((at) => at / 1000);
      const readings = simulatedMetricSeries({ envId, clusterId: clusterId ?? undefined, metric, windowMinutes }, seconds);
      return { readings, notes: [] };
    },
  };
}
