/**
 * Why an evaluation failed, as a label of `alert_rule_evaluation_errors_total`: a small fixed set,
 * never the error's text (a free-text label would grow the series without bound).
 */
import {
  isMetricNoData,
  isSystemViewPermissionDenied,
  isUnknownCluster,
  isWarehouseUnavailable,
} from '../gateways/warehouse/errors.js';

export const EVALUATION_ERROR_REASONS = [
  'unknown_cluster',
  'warehouse_unavailable',
  'permission_denied',
  'timeout',
  'no_data',
  'other',
] as const;
export type EvaluationErrorReason = (typeof EVALUATION_ERROR_REASONS)[number];

export function evaluationErrorReason(error: unknown): EvaluationErrorReason {
  if (isUnknownCluster(error)) return 'unknown_cluster';
  if (isMetricNoData(error)) return 'no_data';
  // A missing grant (a superuser-only view): not an outage, and no reading either, never a 0.
  if (isSystemViewPermissionDenied(error)) return 'permission_denied';
  if (isWarehouseUnavailable(error)) return error.reason === 'timeout' ? 'timeout' : 'warehouse_unavailable';
  return 'other';
}
