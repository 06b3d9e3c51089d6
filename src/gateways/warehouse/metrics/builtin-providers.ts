import { BUILTIN_METRICS, BUILTIN_METRIC_IDS, type BuiltinMetricId } from '../metric-catalogue.js';
import type { MetricProvider } from './provider.js';

/**
 * The seven SPEC metrics. Each is one native measurement of the adapter (a single SQL aggregate
 * over the system views on Redshift, the workload model in the simulator), because computing
 * e.g. the longest runtime of a window from listed queries would ship every query of the window
 * over the Data API. Providers for further metrics may combine any gateway operation instead.
 */
function nativeMetric(id: BuiltinMetricId): MetricProvider {
  return {
    ...BUILTIN_METRICS[id],
    read: (gateway, scope) => gateway.readMetric({ ...scope, metric: id }),
  };
}

export const builtinMetricProviders = (): [BuiltinMetricId, MetricProvider][] =>
  BUILTIN_METRIC_IDS.map((id) => [id, nativeMetric(id)]);
