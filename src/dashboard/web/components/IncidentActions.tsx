/** Acknowledge and resolve (optionally with a note), for incidents:write holders. */
import type { Incident } from '../api/types';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';

export function IncidentActions({
  incident,
  onChange,
}: {
  incident: Incident;
  onChange: (incident: Incident) => void;
}) {
  const { calls } = useSession();
  if (incident.status === 'resolved') return null;
  return (
    <span class="actions">
      {incident.status === 'triggered' ? (
        <ActionButton
          label="Acknowledge"
          kind="primary"
          permission="incidents:write"
          action={async () => onChange(await calls.acknowledge(incident.id))}
        />
      ) : null}
      <ActionButton
        label="Resolve"
        permission="incidents:write"
        action={async () => onChange(await calls.resolve(incident.id))}
      />
    </span>
  );
}
