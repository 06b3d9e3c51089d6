/**
 * Notification channels: list, create, edit, delete, and "Send test" with the downstream answer.
 * Reading needs channels:read; every write button follows channels:write.
 */
import { useState } from 'preact/hooks';
import type { ChannelTestAnswer, NotificationChannel } from '../api/types';
import { ActionButton } from '../components/ActionButton';
import { ChannelEditor } from '../components/ChannelEditor';
import { ChannelTestResult } from '../components/ChannelTestResult';
import { destinationOf } from '../components/channel-config';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; channel: NotificationChannel };

export function ChannelsPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.channels(), []);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [tested, setTested] = useState<{ name: string; answer: ChannelTestAnswer } | undefined>(undefined);
  const [secret, setSecret] = useState<{ name: string; value: string } | undefined>(undefined);
  const writable = can('channels:write');
  const channels = loaded.value ?? [];

  const saved = (channel: NotificationChannel) => {
    setSecret(channel.signing_secret ? { name: channel.name, value: channel.signing_secret } : undefined);
    setEditing({ kind: 'none' });
    loaded.reload();
  };

  return (
    <section>
      <h1>
        Notification channels
        {writable && editing.kind === 'none' ? (
          <button type="button" class="button primary" onClick={() => setEditing({ kind: 'new' })}>
            New channel
          </button>
        ) : null}
      </h1>
      {editing.kind !== 'none' ? (
        <ChannelEditor
          key={editing.kind === 'edit' ? editing.channel.id : 'new'}
          channel={editing.kind === 'edit' ? editing.channel : undefined}
          onSaved={saved}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : null}
      {secret ? (
        <div class="card" role="status">
          <p>
            Signing secret of {secret.name}, shown once: <code data-testid="signing-secret">{secret.value}</code>
          </p>
          <p class="hint">The receiver checks each request's X-Signature with it (docs/escalation.md).</p>
        </div>
      ) : null}
      {tested ? <ChannelTestResult name={tested.name} answer={tested.answer} /> : null}
      {loaded.loading && !loaded.value ? <p class="loading">Loading channels…</p> : null}
      <ErrorNote error={loaded.error} />
      {loaded.value && channels.length === 0 ? (
        <p class="empty">No notification channels yet.{writable ? ' Create one to page people through it.' : ''}</p>
      ) : null}
      {channels.length > 0 ? (
        <table class="grid" data-testid="channels">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Sends to</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((channel) => (
              <tr key={channel.id}>
                <td data-label="Name">{channel.name}</td>
                <td data-label="Type">{channel.type}</td>
                <td data-label="Sends to">{destinationOf(channel.type, channel.config)}</td>
                <td data-label="Actions">
                  {writable ? (
                    <>
                      <ActionButton
                        label="Send test"
                        permission="channels:write"
                        action={async () =>
                          setTested({ name: channel.name, answer: await calls.testChannel(channel.id) })
                        }
                      />
                      <button
                        type="button"
                        class="button plain"
                        aria-label={`Edit ${channel.name}`}
                        onClick={() => setEditing({ kind: 'edit', channel })}
                      >
                        Edit
                      </button>
                      <ConfirmDelete
                        name={channel.name}
                        permission="channels:write"
                        remove={async () => (await calls.deleteChannel(channel.id), loaded.reload())}
                      />
                    </>
                  ) : (
                    <span class="muted">read only</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
