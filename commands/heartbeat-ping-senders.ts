/**
 * What the callers a heartbeat is made for send on their own, read as a run's outcome, so their
 * notification can point at the ping address with nothing in between (docs/heartbeats.md). Pure.
 *   - An EventBridge event of the Redshift Data API (a scheduled query's run, `WithEvent`):
 *     `detail-type` "Redshift Data Statement Status Change"; `detail.state` FINISHED is a good run,
 *     FAILED and ABORTED a failed one.
 *   - A dbt Cloud job webhook: `eventType` `job.run.errored` is a failed run; `job.run.completed`
 *     is good when `data.runStatus` is "Success" (it fires for failed runs too).
 * Anything else is left to the generic reading (query, `status`, `message`).
 */
export interface SenderPing {
  status: 'success' | 'fail';
  message: string;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : fallback;

function redshiftStatement(body: Record<string, unknown>): SenderPing | null {
  if (body['detail-type'] !== 'Redshift Data Statement Status Change') return null;
  const detail = record(body.detail);
  const state = text(detail.state, 'UNKNOWN');
  return {
    status: state === 'FINISHED' ? 'success' : 'fail',
    message: `Redshift: ${text(detail.statementName, 'a statement')} ${state}`,
  };
}

function dbtCloudRun(body: Record<string, unknown>): SenderPing | null {
  const eventType = body.eventType;
  if (eventType !== 'job.run.completed' && eventType !== 'job.run.errored') return null;
  const data = record(body.data);
  const status = text(data.runStatus, eventType === 'job.run.errored' ? 'Errored' : 'unknown');
  const good = eventType === 'job.run.completed' && status === 'Success';
  const detail =
    typeof data.runStatusMessage === 'string' && data.runStatusMessage !== '' ? `: ${data.runStatusMessage}` : '';
  return {
    status: good ? 'success' : 'fail',
    message: `dbt Cloud: ${text(data.jobName, `job ${text(data.jobId, '?')}`)} run ${text(data.runId, '?')} ${status}${detail}`,
  };
}

/** The outcome a known sender's own body reports, or null for any other body. */
export const senderPing = (body: Record<string, unknown>): SenderPing | null =>
  redshiftStatement(body) ?? dbtCloudRun(body);
