/**
 * Where a rule backtest reads metric history: the port, and what an answer carries. Adapters:
 * the relational store's mirrored samples (src/syncstore/metric-history.ts) and the simulated
 * warehouse's deterministic history (src/gateways/warehouse/simulated/simulated-history.ts); the
 * composition root (src/composition/backtest.ts) decides which one answers.
 */

/** The sync job samples each metric every this many minutes (`cluster_metrics`), so history has this resolution. */
export const METRIC_SAMPLE_MINUTES = 5;

import type { HistorySourceName } from '../../contract/vocabulary.js';

export { HISTORY_SOURCES, type HistorySourceName } from '../../contract/vocabulary.js';

export interface MetricHistoryRequest {
  envId: string;
  /** One cluster, or null for every cluster of the environment (as the rule reads it). */
  clusterId: string | null;
  metric: string;
  /** The rule's look-back, at least 1 minute (as the evaluator reads it). */
  windowMinutes: number;
  /** The instants to read, epoch milliseconds, ascending. */
  instants: readonly number[];
}

export interface MetricHistory {
  /** One reading per instant; null where history has nothing for it. */
  readings: (number | null)[];
  /** What the reader had to approximate, in words for the answer (empty when nothing was). */
  notes: string[];
}

export interface MetricHistorySource {
  readonly name: HistorySourceName;
  /** Throws the warehouse's errors for an unknown metric or cluster (the route answers 400). */
  read(request: MetricHistoryRequest): Promise<MetricHistory>;
}
