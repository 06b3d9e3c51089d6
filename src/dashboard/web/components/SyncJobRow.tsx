/**
 * One sync job: its state, last run and result, next run, and the actions. A failed last run's
 * error is read from the run history once per run (not on every stream tick).
 *
 * Pause and Resume answer at once (issue 29, defect 9): "Pausing…" while the call runs, then the
 * state the API answered, shown until the stream (one update per SYNC_STREAM_PERIOD_SECONDS)
 * reports a state of its own.
 */
import { useState } from 'preact/hooks';
import type { SyncJobStatus } from '../api/types';
import { clock, duration, number, time } from '../format';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';
import { useLoad } from './use-load';

type JobState = SyncJobStatus['status'];

/** The state a pause or resume answered, and the streamed state it was asked from. */
interface Answered {
  state: JobState;
  streamedBefore: JobState;
}

export function SyncJobRow({ job }: { job: SyncJobStatus }) {
  const { calls } = useSession();
  const result = job.last_result;
  const failed = result?.status === 'failed';
  const failure = useLoad(
    () => (failed ? calls.lastFailedRun(job.job_id) : Promise.resolve(undefined)),
    [job.job_id, job.last_run, failed],
  );
  const [pending, setPending] = useState<'Pausing…' | 'Resuming…' | undefined>(undefined);
  const [answered, setAnswered] = useState<Answered | undefined>(undefined);
  const status = answered && answered.streamedBefore === job.status ? answered.state : job.status;

  const change = async (to: 'pause' | 'resume') => {
    const streamedBefore = job.status;
    setPending(to === 'pause' ? 'Pausing…' : 'Resuming…');
    try {
      const answer = (await (to === 'pause' ? calls.pauseSync(job.job_id) : calls.resumeSync(job.job_id))) as {
        state?: JobState;
      };
      setAnswered({ state: answer.state ?? (to === 'pause' ? 'paused' : 'active'), streamedBefore });
    } finally {
      setPending(undefined);
    }
  };

  return (
    <tr data-job-id={job.job_id} data-status={status} data-pending={pending ? 'true' : undefined}>
      <td>
        {job.name}
        <div class="muted">
          {job.job_id}, every {duration(job.interval_seconds * 1000)}
        </div>
      </td>
      <td class={`status job-${status}`}>
        <span role="status" data-testid="job-state">
          {pending ?? status}
        </span>
      </td>
      <td>{time(job.last_run)}</td>
      <td class={result ? `result-${result.status}` : undefined}>{result ? result.status : '—'}</td>
      <td>{result ? `${number(result.rows_extracted)} / ${number(result.rows_upserted)}` : '—'}</td>
      <td>{result ? duration(result.duration_ms) : '—'}</td>
      <td class="error-text">{failed ? (failure.value?.error ?? failure.error ?? '…') : ''}</td>
      <td>{status === 'paused' ? '—' : clock(job.next_run)}</td>
      <td class="actions">
        <ActionButton
          label="Run now"
          permission="sync:write"
          disabled={status !== 'active' || pending !== undefined}
          action={() => calls.triggerSync(job.job_id)}
        />
        {status === 'paused' ? (
          <ActionButton label={pending ?? 'Resume'} permission="sync:write" action={() => change('resume')} />
        ) : (
          <ActionButton
            label={pending ?? 'Pause'}
            permission="sync:write"
            disabled={status === 'running'}
            action={() => change('pause')}
          />
        )}
      </td>
    </tr>
  );
}
