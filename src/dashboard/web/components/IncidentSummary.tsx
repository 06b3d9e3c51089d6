/** An incident's fields, now or as of a moment; people by name ("you" for the signed-in principal). */
import type { Incident } from '../api/types';
import { CONDITION_SYMBOL, number, time } from '../format';
import { SeverityBadge } from './SeverityBadge';
import type { Who } from './use-people';

function escalation(incident: Incident): string {
  const e = incident.escalation;
  if (!e) return '—';
  const policy = e.policy_name ?? 'its policy';
  const stage = e.current_stage ? `, stage ${e.current_stage.stage_order} fired ${time(e.current_stage.fired_at)}` : '';
  const next = incident.next_escalation_at ? `; next stage ${time(incident.next_escalation_at)}` : '';
  switch (e.status) {
    case 'pending':
      return 'not started yet';
    case 'not_started':
      return 'not started: its policy was gone';
    case 'cancelled':
      return `${policy}${stage}; stopped (${e.cancel_reason ?? 'cancelled'})`;
    default:
      return `${policy}${stage}${next}`;
  }
}

export function IncidentSummary({ incident, who = (id) => id ?? '—' }: { incident: Incident; who?: Who }) {
  return (
    <dl class="facts" data-testid="incident-summary" data-status={incident.status}>
      <dt>Status</dt>
      <dd class={`status status-${incident.status}`}>{incident.status}</dd>
      <dt>Severity</dt>
      <dd>
        <SeverityBadge severity={incident.severity} />
      </dd>
      {incident.metric === null || incident.condition === null ? (
        <>
          <dt>Source</dt>
          <dd data-testid="incident-source">
            {incident.source}
            {incident.cluster_id ? ` on ${incident.cluster_id}` : ''}
          </dd>
          <dt>Detail</dt>
          <dd data-testid="incident-detail">{incident.detail ?? '—'}</dd>
        </>
      ) : (
        <>
          <dt>Condition</dt>
          <dd>
            {incident.metric} {CONDITION_SYMBOL[incident.condition] ?? incident.condition}{' '}
            {number(incident.threshold, 2)}
            {incident.cluster_id ? ` on ${incident.cluster_id}` : ''}
          </dd>
          <dt>Value</dt>
          <dd>{number(incident.current_value, 2)}</dd>
        </>
      )}
      <dt>Escalation</dt>
      <dd data-testid="escalation">{escalation(incident)}</dd>
      <dt>Triggered</dt>
      <dd>{time(incident.triggered_at)}</dd>
      <dt>Acknowledged</dt>
      <dd data-testid="acknowledged">
        {incident.acknowledged_at ? `${time(incident.acknowledged_at)} by ${who(incident.acknowledged_by)}` : '—'}
      </dd>
      <dt>Resolved</dt>
      <dd data-testid="resolved">
        {incident.resolved_at
          ? `${time(incident.resolved_at)} by ${who(incident.resolved_by)} (${incident.resolution_reason})${incident.resolution_note ? `: ${incident.resolution_note}` : ''}`
          : '—'}
      </dd>
      <dt>Notes</dt>
      <dd>
        {incident.notes.length === 0 ? (
          '—'
        ) : (
          <ul class="notes">
            {incident.notes.map((note) => (
              <li key={note.id}>
                {time(note.created_at)} {who(note.author)}: {note.text}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </dl>
  );
}
