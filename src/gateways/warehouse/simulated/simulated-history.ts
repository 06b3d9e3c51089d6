/**
 * The simulated warehouse's history as a backtest source: every past instant is recomputed from the
 * seed (metric-history.ts), so there are no gaps in the past. Pins are live overrides and are not
 * history: a backtest sees the workload as the simulator models it.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { MetricHistorySource } from '../metric-history-port.js';
import { simulatedMetricSeries } from './metric-history.js';

/**
 * Instants computed between two turns of the event loop: a day of minutes is some 10–30 ms of
 * work, where 31 days at once held every request and the evaluator for half a second or more.
 */
const INSTANTS_PER_TURN = 1440;

export function simulatedHistorySource(): MetricHistorySource {
  return {
    name: 'simulator',
    async read({ envId, clusterId, metric, windowMinutes, instants }) {
      const scope = { envId, clusterId: clusterId ?? undefined, metric, windowMinutes };
      const readings: number[] = [];
      for (let start = 0; start < instants.length; start += INSTANTS_PER_TURN) {
        if (start > 0) await yieldToEventLoop();
        const chunk = instants.slice(start, start + INSTANTS_PER_TURN).map((at) => at / 1000);
        for (const value of simulatedMetricSeries(scope, chunk)) readings.push(value);
      }
      return { readings, notes: [] };
    },
  };
}
