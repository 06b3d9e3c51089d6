/**
 * One incident in the list: when it triggered (relative, the exact time in the tooltip), who
 * acknowledged it and how long that took, how long it took to resolve and who resolved it why (the
 * evaluator or a person, with the resolution note), its actions, and a
 * checkbox for the bulk actions (for incidents:write holders; a resolved incident has none).
 */
import type { Incident } from '../api/types';
import { CONDITION_SYMBOL, ago, between, number, time } from '../format';
import { IncidentActions } from './IncidentActions';
import { describeResolution } from './resolution';
import { SeverityBadge } from './SeverityBadge';
import type { Who } from './use-people';

interface Props {
  incident: Incident;
  onChange: (incident: Incident) => void;
  who: Who;
  now: number;
  /** Undefined: no selection column (the principal cannot act on incidents). */
  selected?: boolean;
  onSelect?: (selected: boolean) => void;
}

const When = ({ at, now }: { at: string; now: number }) => (
  <time dateTime={at} title={time(at)}>
    {ago(at, now)}
  </time>
);

export function IncidentRow({ incident, onChange, who, now, selected, onSelect }: Props) {
  return (
    <tr data-incident-id={incident.id} data-status={incident.status}>
      {onSelect ? (
        <td class="select">
          {incident.status === 'resolved' ? null : (
            <input
              type="checkbox"
              checked={selected}
              aria-label={`Select ${incident.title}`}
              onChange={(event) => onSelect((event.currentTarget as HTMLInputElement).checked)}
            />
          )}
        </td>
      ) : null}
      <td>
        <SeverityBadge severity={incident.severity} />
      </td>
      <td>
        <a href={`#/incidents/${incident.id}`}>{incident.title}</a>
      </td>
      <td data-label="Reading">
        {incident.metric === null || incident.condition === null ? (
          <span data-testid="incident-detail">{incident.detail ?? incident.source}</span>
        ) : (
          <>
            {incident.metric} {number(incident.current_value, 2)}{' '}
            {CONDITION_SYMBOL[incident.condition] ?? incident.condition} {number(incident.threshold, 2)}
          </>
        )}
        {incident.cluster_id ? <span class="muted"> on {incident.cluster_id}</span> : null}
      </td>
      <td class={`status status-${incident.status}`}>{incident.status}</td>
      <td data-label="Triggered">
        <When at={incident.triggered_at} now={now} />
      </td>
      <td data-label="Acknowledged" data-testid="acknowledged">
        {incident.acknowledged_at ? (
          <span title={time(incident.acknowledged_at)}>
            {who(incident.acknowledged_by)}, after {between(incident.triggered_at, incident.acknowledged_at)}
          </span>
        ) : null}
      </td>
      <td data-label="Resolved">
        {incident.resolved_at ? (
          <>
            <span title={time(incident.resolved_at)} data-testid="time-to-resolve">
              after {between(incident.triggered_at, incident.resolved_at)}
            </span>
            <span class="resolution muted" data-testid="resolution">
              {describeResolution(incident, who)}
            </span>
          </>
        ) : null}
      </td>
      <td>
        <IncidentActions incident={incident} onChange={onChange} />
      </td>
    </tr>
  );
}
