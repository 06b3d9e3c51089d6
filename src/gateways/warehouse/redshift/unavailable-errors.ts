import { describeTarget, type RedshiftTarget } from '../environments.js';
import { SystemViewPermissionDeniedError, WarehouseUnavailableError, type UnavailableReason } from '../errors.js';
import { StatementFailedError, StatementTimeoutError } from './statement-runner.js';
import { deniedViewIn, grantsFor, isPermissionDenied } from './system-view-grants.js';

/**
 * Turns whatever the Data API, the network or the statement runner threw into a
 * WarehouseUnavailableError whose message names the environment and the reason in our words.
 * The driver's text is matched to pick the reason but never copied into the message; the
 * original error rides along as `cause` for the log.
 */

interface DriverError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
const ACCESS_ERRORS = new Set([
  'AccessDeniedException',
  'UnrecognizedClientException',
  'ExpiredTokenException',
  'InvalidSignatureException',
  'CredentialsProviderError',
]);
const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'ActiveStatementsExceededException',
  'ActiveSessionsExceededException',
  'ActiveWaitingRequestsExceededException',
]);

function classify(error: unknown, statementName: string): { reason: UnavailableReason; why: string } {
  if (error instanceof StatementTimeoutError) {
    return { reason: 'timeout', why: `did not answer the ${statementName} statement within ${error.timeoutMs} ms` };
  }
  if (error instanceof StatementFailedError) {
    if (isPermissionDenied(error.detail)) {
      return {
        reason: 'permission_denied',
        why: `refused the monitoring user a relation the ${statementName} statement reads`,
      };
    }
    return error.status === 'ABORTED'
      ? { reason: 'statement_failed', why: `aborted the ${statementName} statement` }
      : { reason: 'statement_failed', why: `failed to run the ${statementName} statement` };
  }
  const driver = (typeof error === 'object' && error !== null ? error : {}) as DriverError;
  const name = driver.name ?? '';
  const text = driver.message ?? '';
  if (/paus/i.test(text)) return { reason: 'paused', why: 'is paused' };
  if (name === 'ValidationException' || name === 'ResourceNotFoundException') {
    if (/endpoint|not found|does ?n[o']t exist|no such|unknown cluster|workgroup/i.test(text)) {
      return {
        reason: 'endpoint_missing',
        why: 'has no endpoint the Data API can find (check the identifier, the region, or whether it was deleted)',
      };
    }
    if (/not (in )?(an? )?available|resiz|resum|reboot|modif/i.test(text)) {
      return { reason: 'unreachable', why: 'is not in an available state (resizing, resuming or rebooting)' };
    }
    return { reason: 'rejected', why: 'rejected the request as invalid' };
  }
  if (name === 'DatabaseConnectionException')
    return { reason: 'unreachable', why: 'is unreachable: the Data API could not connect to the database' };
  if (name === 'QueryTimeoutException' || name === 'TimeoutError' || driver.code === 'ETIMEDOUT') {
    return { reason: 'timeout', why: 'timed out' };
  }
  if (driver.code !== undefined && NETWORK_CODES.has(driver.code)) {
    return { reason: 'unreachable', why: 'is unreachable: the Redshift Data API endpoint cannot be reached' };
  }
  if (ACCESS_ERRORS.has(name) || driver.$metadata?.httpStatusCode === 403) {
    return { reason: 'access_denied', why: 'refused the platform access (check the credentials and the IAM policy)' };
  }
  if (THROTTLING_ERRORS.has(name))
    return { reason: 'throttled', why: 'is busy: too many active statements or sessions' };
  return { reason: 'error', why: 'returned an error' };
}

export function unavailableFrom(
  error: unknown,
  envId: string,
  target: RedshiftTarget,
  statementName: string,
): WarehouseUnavailableError {
  const deniedView = error instanceof StatementFailedError ? deniedViewIn(error.detail) : undefined;
  if (deniedView) return permissionDenied(envId, target, [deniedView], { cause: error });
  const { reason, why } = classify(error, statementName);
  return new WarehouseUnavailableError(envId, reason, `${describeTarget(target)} of environment ${envId} ${why}`, {
    cause: error,
  });
}

/** The monitoring user may not read these superuser-only views: name them and the grants that fix it. */
export function permissionDenied(
  envId: string,
  target: RedshiftTarget,
  views: readonly string[],
  options?: { cause?: unknown },
) {
  const grants = grantsFor(target, views);
  return new SystemViewPermissionDeniedError(
    envId,
    views,
    grants,
    `${describeTarget(target)} of environment ${envId} refused the monitoring user the superuser-only ${views.join(', ')}: ` +
      `a superuser runs ${grants.slice(0, -1).join(' ')} (or ${grants.at(-1)})`,
    options,
  );
}
