/**
 * The incident page's actions: Acknowledge, and Resolve with an optional note (the API takes one).
 * A refusal (409: someone else resolved it first, 403…) shows as a small inline message beside
 * the buttons, and the page reads the incident again so it shows what is true now; the message
 * stays when the refreshed incident has no buttons left to show.
 */
import { useState } from 'preact/hooks';
import type { Incident } from '../api/types';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';

interface Props {
  incident: Incident;
  onChange: (incident: Incident) => void;
  /** The action was refused: read the incident again. */
  onRefused: () => void;
}

export function IncidentPageActions({ incident, onChange, onRefused }: Props) {
  const { calls, can } = useSession();
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');
  const attempt = (call: () => Promise<Incident>) => async () => {
    setRefusal(undefined);
    try {
      onChange(await call());
      setResolving(false);
      setNote('');
    } catch (failure) {
      setRefusal((failure as Error).message);
      onRefused();
    }
  };
  const resolve = attempt(() => calls.resolve(incident.id, note.trim() || undefined));
  const open = incident.status !== 'resolved';
  return (
    <div class="incident-actions" data-testid="incident-actions">
      {open && incident.status === 'triggered' ? (
        <ActionButton
          label="Acknowledge"
          kind="primary"
          permission="incidents:write"
          action={attempt(() => calls.acknowledge(incident.id))}
        />
      ) : null}
      {open && !resolving ? (
        <ActionButton label="Resolve…" permission="incidents:write" action={async () => setResolving(true)} />
      ) : null}
      {open && resolving && can('incidents:write') ? (
        <form
          class="note-form resolve-form"
          onSubmit={(e) => {
            e.preventDefault();
            void resolve();
          }}
        >
          <input
            aria-label="resolution note"
            placeholder="Resolution note (optional)"
            value={note}
            maxLength={2000}
            onInput={(e) => setNote(e.currentTarget.value)}
          />
          <ActionButton label="Resolve" kind="danger" permission="incidents:write" action={resolve} />
          <button type="button" class="button plain" onClick={() => (setResolving(false), setNote(''))}>
            Cancel
          </button>
        </form>
      ) : null}
      {refusal ? (
        <small class="error refusal" role="status" data-testid="action-refusal">
          {refusal}
        </small>
      ) : null}
    </div>
  );
}
