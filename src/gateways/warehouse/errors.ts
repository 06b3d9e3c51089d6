/**
 * Typed failures of the warehouse gateway. Callers branch on these with the `is…` guards (never
 * on message text); the HTTP layer maps them to problems and the evaluator records them per rule.
 */

/** Why a warehouse could not answer; the message says the same thing in words. */
export type UnavailableReason =
  | 'paused'
  | 'unreachable'
  | 'timeout'
  | 'endpoint_missing'
  | 'statement_failed'
  | 'rejected'
  | 'throttled'
  | 'access_denied'
  | 'permission_denied'
  | 'error';

/**
 * The warehouse of an environment cannot answer right now (503). The message names the
 * environment and the reason and is safe to show to a caller; the driver's own error, when there
 * is one, stays on `cause` for the log only.
 */
export class WarehouseUnavailableError extends Error {
  override readonly name: string = 'WarehouseUnavailableError';
  constructor(
    readonly envId: string,
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The monitoring database user may not read one of the system views the question needs (a
 * superuser-only view, without a grant). Not transient: the warehouse answers, the grant is
 * missing. `views` names the refused views and `grants` the statements an administrator runs to
 * fix it; both are safe to show a caller (they are ours, never the driver's text).
 */
export class SystemViewPermissionDeniedError extends WarehouseUnavailableError {
  override readonly name = 'SystemViewPermissionDeniedError';
  constructor(
    envId: string,
    readonly views: readonly string[],
    readonly grants: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(envId, 'permission_denied', message, options);
  }
}

/** An env_id that a configured environments file does not list (404). */
export class UnknownEnvironmentError extends Error {
  override readonly name = 'UnknownEnvironmentError';
  constructor(readonly envId: string) {
    super(`environment ${envId} has no warehouse configured`);
  }
}

/** A metric id no provider is registered for. Lists the known ids so a caller can correct itself. */
export class UnknownMetricError extends Error {
  override readonly name = 'UnknownMetricError';
  constructor(
    readonly metric: string,
    readonly knownMetrics: readonly string[],
  ) {
    super(`unknown metric "${metric}"; known metrics: ${knownMetrics.join(', ')}`);
  }
}

/** A cluster_id that is not part of the environment's warehouse. */
export class UnknownClusterError extends Error {
  override readonly name = 'UnknownClusterError';
  constructor(
    readonly envId: string,
    readonly clusterId: string,
    readonly knownClusters: readonly string[],
  ) {
    super(`cluster "${clusterId}" is not part of environment ${envId}; its clusters: ${knownClusters.join(', ')}`);
  }
}

/** A metric that exists but that this kind of warehouse cannot measure (e.g. CPU on serverless). */
export class MetricNotSupportedError extends Error {
  override readonly name = 'MetricNotSupportedError';
  constructor(
    readonly metric: string,
    readonly why: string,
  ) {
    super(`metric "${metric}" is not available: ${why}`);
  }
}

/**
 * The warehouse answered the metric's statement, but with no value: no row, or a NULL the
 * statement does not turn into a reading (the metric statements map "nothing happened in the
 * window" to 0 themselves, so this is a view that returned nothing, not a quiet window). Told
 * apart from a failure so a rule can treat it on its own (`on_no_data`).
 */
export class MetricNoDataError extends Error {
  override readonly name = 'MetricNoDataError';
  constructor(
    readonly envId: string,
    readonly metric: string,
    readonly windowMinutes: number,
  ) {
    super(`the warehouse of environment ${envId} returned no value for ${metric} over the last ${windowMinutes} min`);
  }
}

/** A metric request that can never be answered as asked (e.g. a window of 0 minutes). */
export class InvalidMetricRequestError extends Error {
  override readonly name = 'InvalidMetricRequestError';
}

export const isWarehouseUnavailable = (error: unknown): error is WarehouseUnavailableError =>
  error instanceof WarehouseUnavailableError;
export const isSystemViewPermissionDenied = (error: unknown): error is SystemViewPermissionDeniedError =>
  error instanceof SystemViewPermissionDeniedError;
export const isUnknownEnvironment = (error: unknown): error is UnknownEnvironmentError =>
  error instanceof UnknownEnvironmentError;
export const isMetricNoData = (error: unknown): error is MetricNoDataError => error instanceof MetricNoDataError;
export const isUnknownMetric = (error: unknown): error is UnknownMetricError => error instanceof UnknownMetricError;
export const isUnknownCluster = (error: unknown): error is UnknownClusterError => error instanceof UnknownClusterError;
