/**
 * Open incidents, live: the incident feed says which incident changed, and the row is read again
 * (GET /incidents/{id}), so the list always shows the read model's view. The feed is opened
 * before the list is read, so an incident triggered in between is not missed.
 */
import { useEffect, useState } from 'preact/hooks';
import { openEventFeed, type FeedState } from '../api/event-feed';
import type { Incident } from '../api/types';
import { ErrorNote } from '../components/ErrorNote';
import { FeedBadge } from '../components/FeedBadge';
import { IncidentRow } from '../components/IncidentRow';
import { useSession } from '../components/session-context';

export const INCIDENT_FEED_EVENTS = [
  'IncidentTriggered', 'IncidentAcknowledged', 'IncidentResolved', 'IncidentNoteAdded',
  'EscalationStarted', 'EscalationNotStarted', 'EscalationStageFired', 'NotificationDelivered', 'NotificationFailed',
] as const;

const SEVERITY_ORDER = { critical: 0, high: 1, medium: 2, low: 3 };

export function IncidentsPage() {
  const { api, calls } = useSession();
  const [incidents, setIncidents] = useState<Map<string, Incident>>(new Map());
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [error, setError] = useState<string | undefined>(undefined);

  const put = (incident: Incident) =>
    setIncidents((current) => {
      const next = new Map(current);
      if (incident.status === 'resolved') next.delete(incident.id);
      else next.set(incident.id, incident);
      return next;
    });

  useEffect(() => {
    const close = openEventFeed({
      api,
      path: '/api/v1/incidents/stream',
      events: INCIDENT_FEED_EVENTS,
      onState: setFeed,
      onEvent: (_name, data) => {
        const incidentId = (data as { incident_id?: string }).incident_id;
        if (incidentId) calls.incident(incidentId).then(put, (failure: Error) => setError(failure.message));
      },
    });
    calls.openIncidents().then(
      (open) => setIncidents((current) => new Map([...open.map((incident) => [incident.id, incident] as const), ...current])),
      (failure: Error) => setError(failure.message),
    );
    return close;
  }, [api]);

  const rows = [...incidents.values()].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.triggered_at.localeCompare(a.triggered_at),
  );
  return (
    <section>
      <h1>Open incidents <FeedBadge state={feed} /></h1>
      <ErrorNote error={error} />
      {rows.length === 0 ? (
        <p class="empty" data-testid="no-incidents">Nothing is burning.</p>
      ) : (
        <table class="grid" data-testid="incidents">
          <thead>
            <tr><th>Severity</th><th>Rule</th><th>Reading</th><th>Status</th><th>Triggered</th><th /></tr>
          </thead>
          <tbody>{rows.map((incident) => <IncidentRow key={incident.id} incident={incident} onChange={put} />)}</tbody>
        </table>
      )}
    </section>
  );
}
