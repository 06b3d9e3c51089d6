/**
 * One sync job: its state, last run and result, next run, and the actions. A failed last run's
 * error is read from the run history once per run (not on every stream tick).
 */
import type { SyncJobStatus } from '../api/types';
import { clock, duration, number, time } from '../format';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';
import { useLoad } from './use-load';

export function SyncJobRow({ job }: { job: SyncJobStatus }) {
  const { calls } = useSession();
  const result = job.last_result;
  const failed = result?.status === 'failed';
  const failure = useLoad(() => (failed ? calls.lastFailedRun(job.job_id) : Promise.resolve(undefined)), [job.job_id, job.last_run, failed]);
  return (
    <tr data-job-id={job.job_id} data-status={job.status}>
      <td>{job.name}<div class="muted">{job.job_id}, every {duration(job.interval_seconds * 1000)}</div></td>
      <td class={`status job-${job.status}`}>{job.status}</td>
      <td>{time(job.last_run)}</td>
      <td class={result ? `result-${result.status}` : undefined}>{result ? result.status : '—'}</td>
      <td>{result ? `${number(result.rows_extracted)} / ${number(result.rows_upserted)}` : '—'}</td>
      <td>{result ? duration(result.duration_ms) : '—'}</td>
      <td class="error-text">{failed ? (failure.value?.error ?? failure.error ?? '…') : ''}</td>
      <td>{clock(job.next_run)}</td>
      <td class="actions">
        <ActionButton label="Run now" permission="sync:write" disabled={job.status !== 'active'} action={() => calls.triggerSync(job.job_id)} />
        {job.status === 'paused'
          ? <ActionButton label="Resume" permission="sync:write" action={() => calls.resumeSync(job.job_id)} />
          : <ActionButton label="Pause" permission="sync:write" disabled={job.status === 'running'} action={() => calls.pauseSync(job.job_id)} />}
      </td>
    </tr>
  );
}
