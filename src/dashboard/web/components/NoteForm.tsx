/** Adds a note to an incident (any state, also after resolution). */
import { useState } from 'preact/hooks';
import type { Incident } from '../api/types';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';

export function NoteForm({ incidentId, onChange }: { incidentId: string; onChange: (incident: Incident) => void }) {
  const { calls, can } = useSession();
  const [text, setText] = useState('');
  if (!can('incidents:write')) return null;
  return (
    <div class="note-form">
      <input
        aria-label="note"
        placeholder="Add a note…"
        value={text}
        maxLength={2000}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <ActionButton
        label="Add note"
        permission="incidents:write"
        disabled={text.trim() === ''}
        action={async () => {
          onChange(await calls.addNote(incidentId, text.trim()));
          setText('');
        }}
      />
    </div>
  );
}
