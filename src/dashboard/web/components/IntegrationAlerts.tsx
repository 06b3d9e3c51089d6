/**
 * What an integration received lately: the incidents its senders opened, newest first, each with
 * its dedup key, how many triggers it counted and when the last one came (repeats of an open key
 * add to the count and page nobody).
 */
import type { Integration } from '../api/types';
import { time } from '../format';
import { ErrorNote } from './ErrorNote';
import { useSession } from './session-context';
import { SeverityBadge } from './SeverityBadge';
import { useLoad } from './use-load';

export function IntegrationAlerts({ integration }: { integration: Integration }) {
  const { calls } = useSession();
  const incidents = useLoad(
    () => calls.integrationIncidents(integration.id),
    [integration.id, integration.last_event_at],
  );
  return (
    <div class="card" data-testid="integration-alerts" aria-label={`Received by ${integration.name}`} role="region">
      <h2>Received by {integration.name}</h2>
      <p class="muted">
        {integration.events_received} events accepted, the last {time(integration.last_event_at)}.
      </p>
      <ErrorNote error={incidents.error} />
      {incidents.value && incidents.value.length === 0 ? <p class="empty">No alerts yet.</p> : null}
      {incidents.value && incidents.value.length > 0 ? (
        <table class="grid">
          <thead>
            <tr>
              <th>Incident</th>
              <th>Dedup key</th>
              <th>Alerts</th>
              <th>Last alert</th>
            </tr>
          </thead>
          <tbody>
            {incidents.value.map((incident) => (
              <tr key={incident.id} data-incident-id={incident.id}>
                <td data-label="Incident">
                  <SeverityBadge severity={incident.severity} />{' '}
                  <a href={`#/incidents/${incident.id}`}>{incident.title}</a>
                  <div class="muted">{incident.status}</div>
                </td>
                <td data-label="Dedup key">
                  <code>{incident.dedup_key}</code>
                </td>
                <td data-label="Alerts">{incident.alert_count}</td>
                <td data-label="Last alert">{time(incident.last_alert_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
