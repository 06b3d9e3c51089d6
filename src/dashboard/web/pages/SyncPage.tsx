/**
 * Sync status, fed by /api/v1/sync/stream (a sync_update every SYNC_STREAM_PERIOD_SECONDS; no
 * polling). Actions answer at once; their effect shows with the next update.
 */
import { useEffect, useState } from 'preact/hooks';
import { openEventFeed, type FeedState } from '../api/event-feed';
import type { SyncStatus } from '../api/types';
import { ActionButton } from '../components/ActionButton';
import { FeedBadge, FeedPausedNote } from '../components/FeedBadge';
import { useSession } from '../components/session-context';
import { SyncJobHeartbeats } from '../components/SyncJobHeartbeats';
import { SyncJobRow } from '../components/SyncJobRow';
import { clock } from '../format';

export function SyncPage() {
  const { api, calls } = useSession();
  const [status, setStatus] = useState<SyncStatus | undefined>(undefined);
  const [updates, setUpdates] = useState(0);
  const [receivedAt, setReceivedAt] = useState<string | undefined>(undefined);
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [feedNote, setFeedNote] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);

  const received = (next: SyncStatus) => {
    setStatus(next);
    setUpdates((n) => n + 1);
    setReceivedAt(new Date().toISOString());
  };

  useEffect(
    () =>
      openEventFeed({
        api,
        path: '/api/v1/sync/stream',
        events: ['sync_update'],
        onState: (state, note) => {
          setFeed(state);
          setFeedNote(note);
        },
        onEvent: (_name, data) => received(data as SyncStatus),
        // Live updates paused (the stream refused or failing): the status is read every 15 s.
        onPoll: () => void api.get<SyncStatus>('/api/v1/sync/status', 'bare').then(received, () => undefined),
      }),
    [api],
  );

  return (
    <section>
      <h1>
        Data sync <FeedBadge state={feed} note={feedNote} />
        {status ? (
          <span class={`badge sync-${status.status}`} data-testid="sync-status">
            {status.status}
          </span>
        ) : null}
      </h1>
      <FeedPausedNote state={feed} note={feedNote} />
      <p class="muted" data-testid="sync-updates" data-updates={updates}>
        {updates} update{updates === 1 ? '' : 's'}, last at {clock(receivedAt)}; schedule in{' '}
        {status?.scheduler_timezone ?? '…'}
      </p>
      <p>
        <ActionButton
          label="Run all active jobs"
          kind="primary"
          permission="sync:write"
          action={async () => setMessage((await calls.triggerSync()).message)}
        />
        {message ? <span class="muted"> {message}</span> : null}
      </p>
      {status ? (
        <table class="grid" data-testid="sync-jobs">
          <thead>
            <tr>
              <th>Job</th>
              <th>State</th>
              <th>Last run</th>
              <th>Result</th>
              <th>Rows read / written</th>
              <th>Took</th>
              <th>Error</th>
              <th>Next run</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {status.jobs.map((job) => (
              <SyncJobRow key={job.job_id} job={job} />
            ))}
          </tbody>
        </table>
      ) : (
        <p class="loading">Waiting for the first update…</p>
      )}
      <SyncJobHeartbeats />
    </section>
  );
}
