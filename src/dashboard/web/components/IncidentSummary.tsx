/** An incident's fields, now or as of a moment. */
import type { Incident } from '../api/types';
import { CONDITION_SYMBOL, number, time } from '../format';
import { SeverityBadge } from './SeverityBadge';

export function IncidentSummary({ incident }: { incident: Incident }) {
  return (
    <dl class="facts" data-testid="incident-summary" data-status={incident.status}>
      <dt>Status</dt><dd class={`status status-${incident.status}`}>{incident.status}</dd>
      <dt>Severity</dt><dd><SeverityBadge severity={incident.severity} /></dd>
      <dt>Condition</dt>
      <dd>{incident.metric} {CONDITION_SYMBOL[incident.condition] ?? incident.condition} {number(incident.threshold, 2)}{incident.cluster_id ? ` on ${incident.cluster_id}` : ''}</dd>
      <dt>Value</dt><dd>{number(incident.current_value, 2)}</dd>
      <dt>Triggered</dt><dd>{time(incident.triggered_at)}</dd>
      <dt>Acknowledged</dt><dd>{incident.acknowledged_at ? `${time(incident.acknowledged_at)} by ${incident.acknowledged_by}` : '—'}</dd>
      <dt>Resolved</dt>
      <dd>{incident.resolved_at ? `${time(incident.resolved_at)} (${incident.resolution_reason})${incident.resolution_note ? `: ${incident.resolution_note}` : ''}` : '—'}</dd>
      <dt>Notes</dt>
      <dd>
        {incident.notes.length === 0 ? '—' : (
          <ul class="notes">{incident.notes.map((note) => <li key={note.id}>{time(note.created_at)} {note.author}: {note.text}</li>)}</ul>
        )}
      </dd>
    </dl>
  );
}
