import type { MetricRequest, MetricScope, WarehouseGateway } from '../port.js';

/**
 * A metric provider turns gateway reads into one number for a scope (environment, optional
 * cluster, window). Registering one is how the metric set grows (SPEC: "extensible on the server
 * side by registering further metric providers").
 */
export interface MetricProvider {
  unit: string;
  description: string;
  read(gateway: WarehouseGateway, scope: MetricScope): Promise<number>;
}

/**
 * Values that take precedence over what providers measure: the simulator's pinned metrics.
 * Returns undefined when nothing is pinned; may throw (e.g. the environment is paused).
 */
export interface MetricOverrides {
  pinnedValue(request: MetricRequest): number | undefined;
}

export type MetricReadResult =
  | { request: MetricRequest; ok: true; value: number }
  | { request: MetricRequest; ok: false; error: Error };
