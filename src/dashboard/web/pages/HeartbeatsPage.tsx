/**
 * Heartbeats (issue 38): every heartbeat of the tenant with where it stands now, its last ping and
 * when a silence pages; create, edit (If-Match), rotate or revoke the ping address and delete for
 * writers (`alerts:write`). A new address (create, rotate) is shown once, here, to copy: the API
 * never shows it again.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Heartbeat, HeartbeatWithAddress } from '../api/types';
import { ActionButton } from '../components/ActionButton';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { HeartbeatEditor } from '../components/HeartbeatEditor';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { time } from '../format';
import { durationWords, heartbeatOrder, STATUS_WORDS } from '../heartbeat-words';

type Editing = { kind: 'new' } | { kind: 'edit'; heartbeatId: string } | undefined;

/** The address just made, shown once. */
function NewAddress({ heartbeat, onDone }: { heartbeat: HeartbeatWithAddress; onDone: () => void }) {
  return (
    <div class="card" role="status" data-testid="heartbeat-address">
      <p>
        <strong>{heartbeat.name}</strong>: its ping address. Copy it now, it is not shown again (rotate to get a new
        one).
      </p>
      <input readOnly value={heartbeat.ping_url} aria-label="Ping address" onFocus={(e) => e.currentTarget.select()} />
      <p class="hint">
        <code>curl -fsS "{heartbeat.ping_url}"</code> after a good run, <code>?status=fail</code> after a failed one.
      </p>
      <button type="button" class="button plain" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

export function HeartbeatsPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.heartbeats(), []);
  const policies = useLoad(() => calls.policyNames(), []);
  const [heartbeats, setHeartbeats] = useState<Heartbeat[]>([]);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [address, setAddress] = useState<HeartbeatWithAddress | undefined>(undefined);
  const [outcome, setOutcome] = useState('');
  useEffect(() => setHeartbeats(loaded.value ?? []), [loaded.value]);
  const sorted = useMemo(() => [...heartbeats].sort(heartbeatOrder), [heartbeats]);
  const policyNames = useMemo(() => new Map((policies.value ?? []).map((p) => [p.id, p.name])), [policies.value]);
  const writer = can('alerts:write');
  const put = (heartbeat: Heartbeat) =>
    setHeartbeats((current) => [heartbeat, ...current.filter((h) => h.id !== heartbeat.id)]);
  const withAddress = (heartbeat: HeartbeatWithAddress, words: string) => {
    const { token: _token, ping_url: _url, ...plain } = heartbeat;
    put(plain);
    setAddress(heartbeat);
    setOutcome(words);
  };
  return (
    <section>
      <h1>
        Heartbeats{' '}
        {writer && editing?.kind !== 'new' ? (
          <button type="button" class="button primary" onClick={() => (setOutcome(''), setEditing({ kind: 'new' }))}>
            New heartbeat
          </button>
        ) : null}
      </h1>
      <p class="hint">
        A job pings its heartbeat's address each time it runs. No ping for the interval plus the grace pages the
        heartbeat's policy; a ping with <code>status=fail</code> pages at once; the next good ping resolves it.
      </p>
      <p role="status" class="muted" data-testid="heartbeats-outcome">
        {outcome}
      </p>
      {address ? <NewAddress heartbeat={address} onDone={() => setAddress(undefined)} /> : null}
      {editing ? (
        <HeartbeatEditor
          key={editing.kind === 'edit' ? editing.heartbeatId : 'new'}
          heartbeatId={editing.kind === 'edit' ? editing.heartbeatId : undefined}
          policies={policies.value}
          onCreated={(heartbeat) => (withAddress(heartbeat, `Created ${heartbeat.name}`), setEditing(undefined))}
          onSaved={(heartbeat) => (put(heartbeat), setOutcome(`Saved ${heartbeat.name}`), setEditing(undefined))}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      <ErrorNote error={loaded.error ?? policies.error} />
      {loaded.value && heartbeats.length === 0 ? <p class="empty">No heartbeats yet.</p> : null}
      {sorted.length > 0 ? (
        <table class="grid" data-testid="heartbeats">
          <thead>
            <tr>
              <th>Heartbeat</th>
              <th>Status</th>
              <th>Last ping</th>
              <th>Pages at</th>
              <th>Address</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sorted.map((heartbeat) => (
              <tr key={heartbeat.id} data-heartbeat-id={heartbeat.id} data-status={heartbeat.status}>
                <td data-label="Heartbeat">
                  <strong>{heartbeat.name}</strong>
                  <div class="muted">
                    every {durationWords(heartbeat.interval_seconds)}, grace {durationWords(heartbeat.grace_seconds)},{' '}
                    {heartbeat.severity}, {policyNames.get(heartbeat.escalation_policy_id) ?? 'a deleted policy'}
                  </div>
                </td>
                <td data-label="Status" data-testid="heartbeat-status">
                  <span class={`badge heartbeat-${heartbeat.status}`}>{STATUS_WORDS[heartbeat.status]}</span>
                  {heartbeat.open_incident_id ? (
                    <div>
                      <a href={`#/incidents/${heartbeat.open_incident_id}`}>Open incident</a>
                    </div>
                  ) : null}
                </td>
                <td data-label="Last ping">
                  {time(heartbeat.last_ping_at)}
                  {heartbeat.last_ping_status === 'fail' ? ' (failed)' : ''}
                  {heartbeat.last_ping_message ? <div class="muted">{heartbeat.last_ping_message}</div> : null}
                </td>
                <td data-label="Pages at">{heartbeat.pages_at ? time(heartbeat.pages_at) : '—'}</td>
                <td data-label="Address">{heartbeat.token_hint ?? 'revoked'}</td>
                <td>
                  {writer ? (
                    <>
                      <button
                        type="button"
                        class="button"
                        aria-label={`Edit ${heartbeat.name}`}
                        onClick={() => (setOutcome(''), setEditing({ kind: 'edit', heartbeatId: heartbeat.id }))}
                      >
                        Edit
                      </button>
                      <ActionButton
                        label={`New address for ${heartbeat.name}`}
                        permission="alerts:write"
                        action={async () =>
                          withAddress(
                            await calls.rotateHeartbeatToken(heartbeat.id),
                            `New address for ${heartbeat.name}: the old one no longer works`,
                          )
                        }
                      />
                      <ActionButton
                        label={`Revoke the address of ${heartbeat.name}`}
                        permission="alerts:write"
                        disabled={!heartbeat.has_ping_address}
                        action={async () => {
                          put(await calls.revokeHeartbeatToken(heartbeat.id));
                          setOutcome(`Revoked the address of ${heartbeat.name}: its silence still pages`);
                        }}
                      />
                    </>
                  ) : null}
                  <ConfirmDelete
                    name={heartbeat.name}
                    permission="alerts:write"
                    remove={async () => {
                      await calls.deleteHeartbeat(heartbeat.id);
                      setHeartbeats((current) => current.filter((h) => h.id !== heartbeat.id));
                      setOutcome(`Deleted ${heartbeat.name}`);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
