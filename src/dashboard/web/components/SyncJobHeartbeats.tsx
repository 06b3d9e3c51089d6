/**
 * Each sync job's own heartbeat (PUT /api/v1/sync/jobs/{job_id}/alerting): the policy paged when
 * the job has not succeeded within N of its intervals, and N. The incident resolves by itself on
 * the job's next success (docs/sync.md).
 */
import { useEffect, useState } from 'preact/hooks';
import type { PolicyName, SyncJob } from '../api/types';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';

function HeartbeatRow({ job, policies }: { job: SyncJob; policies: PolicyName[] }) {
  const { calls } = useSession();
  const [policyId, setPolicyId] = useState(job.alert_policy_id ?? '');
  const [missed, setMissed] = useState(job.alert_after_missed_runs);
  const [saved, setSaved] = useState(false);
  return (
    <tr data-testid={`sync-heartbeat-${job.job_id}`}>
      <td>{job.name}</td>
      <td>
        <select
          aria-label={`Policy paged when ${job.name} stops succeeding`}
          value={policyId}
          onChange={(event) => setPolicyId((event.target as HTMLSelectElement).value)}
        >
          <option value="">not watched</option>
          {policies.map((policy) => (
            <option key={policy.id} value={policy.id}>
              {policy.name}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input
          type="number"
          min={1}
          max={1000}
          aria-label={`Missed runs before ${job.name} pages`}
          value={missed}
          onInput={(event) => setMissed(Number((event.target as HTMLInputElement).value))}
        />
      </td>
      <td>
        <ActionButton
          label="Save"
          permission="sync:write"
          action={async () => {
            setSaved(false);
            await calls.setSyncJobAlerting(job.job_id, policyId === '' ? null : policyId, missed);
            setSaved(true);
          }}
        />
        {saved ? <span class="muted"> saved</span> : null}
      </td>
    </tr>
  );
}

export function SyncJobHeartbeats() {
  const { calls } = useSession();
  const [jobs, setJobs] = useState<SyncJob[] | undefined>(undefined);
  const [policies, setPolicies] = useState<PolicyName[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    Promise.all([calls.syncJobs(), calls.policyNames()])
      .then(([loaded, names]) => {
        setJobs(loaded);
        setPolicies(names);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [calls]);
  if (error) return <p class="error">{error}</p>;
  if (!jobs) return <p class="loading">Loading the jobs' heartbeats…</p>;
  return (
    <>
      <h2>Heartbeats</h2>
      <p class="muted">
        A job that has not succeeded within N of its intervals pages the policy; its next success resolves the incident.
      </p>
      <table class="grid" data-testid="sync-heartbeats">
        <thead>
          <tr>
            <th>Job</th>
            <th>Policy paged</th>
            <th>Missed runs (N)</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <HeartbeatRow key={job.job_id} job={job} policies={policies} />
          ))}
        </tbody>
      </table>
    </>
  );
}
