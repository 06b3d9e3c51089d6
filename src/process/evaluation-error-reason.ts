/**
 * Why an evaluation failed, as a label of `alert_rule_evaluation_errors_total`: a small fixed set,
 * never the error's text (a free-text label would grow the series without bound).
 */
import { isUnknownCluster, isWarehouseUnavailable } from '../gateways/warehouse/errors.js';

export const EVALUATION_ERROR_REASONS = ['unknown_cluster', 'warehouse_unavailable', 'timeout', 'other'] as const;
export type EvaluationErrorReason = (typeof EVALUATION_ERROR_REASONS)[number];

export function evaluationErrorReason(error: unknown): EvaluationErrorReason {
  if (isUnknownCluster(error)) return 'unknown_cluster';
  if (isWarehouseUnavailable(error)) return error.reason === 'timeout' ? 'timeout' : 'warehouse_unavailable';
  return 'other';
}
