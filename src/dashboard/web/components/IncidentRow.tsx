/** One open incident in the live list. */
import type { Incident } from '../api/types';
import { CONDITION_SYMBOL, number, time } from '../format';
import { IncidentActions } from './IncidentActions';
import { SeverityBadge } from './SeverityBadge';

export function IncidentRow({ incident, onChange }: { incident: Incident; onChange: (incident: Incident) => void }) {
  return (
    <tr data-incident-id={incident.id} data-status={incident.status}>
      <td><SeverityBadge severity={incident.severity} /></td>
      <td><a href={`#/incidents/${incident.id}`}>{incident.rule_name}</a></td>
      <td>
        {incident.metric} {number(incident.current_value, 2)} {CONDITION_SYMBOL[incident.condition] ?? incident.condition} {number(incident.threshold, 2)}
        {incident.cluster_id ? <span class="muted"> on {incident.cluster_id}</span> : null}
      </td>
      <td class={`status status-${incident.status}`}>{incident.status}</td>
      <td>{time(incident.triggered_at)}</td>
      <td><IncidentActions incident={incident} onChange={onChange} /></td>
    </tr>
  );
}
