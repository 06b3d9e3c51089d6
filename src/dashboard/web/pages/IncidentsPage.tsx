/**
 * Open incidents, live: the incident feed says which incident changed, and the row is read again
 * (GET /incidents/{id}), so the list always shows the read model's view. The feed is opened
 * before the list is read, so an incident triggered in between is not missed; and the list is read
 * again whenever the feed comes back after a drop (a restarted server), so it is never stale.
 *
 * The list has four states, each with its own element and `data-list-state`: loading, failed
 * (the reason and a retry), empty ("Nothing is burning.", only after a successful read) and
 * listed. Changes the feed brings are announced politely to screen readers, and the tab title
 * counts the open incidents while the list is shown.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
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
const APP_TITLE = 'warehouse-watch';

export type ListState = 'loading' | 'failed' | 'empty' | 'listed';

/** Read by screen readers, not shown (set through the CSSOM: the CSP allows no inline style attribute). */
const VISUALLY_HIDDEN = {
  position: 'absolute', width: '1px', height: '1px', margin: '-1px', padding: '0', border: '0',
  overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap',
};

/** What a screen reader hears when the feed changes an incident (undefined: nothing worth saying). */
export function announcement(before: Incident | undefined, after: Incident): string | undefined {
  if (!before) return after.status === 'resolved' ? undefined : `New ${after.severity} incident: ${after.rule_name}`;
  if (before.status !== after.status) return `${after.rule_name} ${after.status}`;
  return undefined;
}

export function IncidentsPage() {
  const { api, calls } = useSession();
  const [incidents, setIncidents] = useState<Map<string, Incident>>(new Map());
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [announced, setAnnounced] = useState('');
  /** The list as last rendered: announcements compare against it. */
  const shown = useRef(incidents);
  shown.current = incidents;
  /** Which read of the list is the newest, and what the feed changed since it began (kept over it). */
  const round = useRef(0);
  const changedDuringRead = useRef(new Map<string, Incident>());

  const put = (incident: Incident) => {
    changedDuringRead.current.set(incident.id, incident);
    setIncidents((current) => {
      const next = new Map(current);
      if (incident.status === 'resolved') next.delete(incident.id);
      else next.set(incident.id, incident);
      return next;
    });
  };

  const fromFeed = (incident: Incident) => {
    const said = announcement(shown.current.get(incident.id), incident);
    if (said) setAnnounced(said);
    put(incident);
  };

  const readList = () => {
    const mine = ++round.current;
    changedDuringRead.current = new Map();
    setLoadError(undefined);
    calls.openIncidents().then(
      (open) => {
        if (mine !== round.current) return;
        const next = new Map(open.map((incident) => [incident.id, incident] as const));
        for (const [id, incident] of changedDuringRead.current) {
          if (incident.status === 'resolved') next.delete(id);
          else next.set(id, incident);
        }
        setIncidents(next);
        setLoaded(true);
      },
      (failure: Error) => mine === round.current && setLoadError(failure.message),
    );
  };

  useEffect(() => {
    const close = openEventFeed({
      api,
      path: '/api/v1/incidents/stream',
      events: INCIDENT_FEED_EVENTS,
      onState: setFeed,
      onReconnect: readList,
      onEvent: (_name, data) => {
        const incidentId = (data as { incident_id?: string }).incident_id;
        if (incidentId) calls.incident(incidentId).then(fromFeed, (failure: Error) => setError(failure.message));
      },
    });
    readList();
    return () => {
      round.current += 1;
      close();
    };
  }, [api]);

  const rows = [...incidents.values()].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.triggered_at.localeCompare(a.triggered_at),
  );
  const state: ListState = loadError ? 'failed' : !loaded ? 'loading' : rows.length === 0 ? 'empty' : 'listed';

  useEffect(() => {
    document.title = loaded && rows.length > 0 ? `(${rows.length}) ${APP_TITLE}` : APP_TITLE;
  }, [loaded, rows.length]);
  useEffect(() => () => void (document.title = APP_TITLE), []);

  return (
    <section data-testid="incident-list" data-list-state={state}>
      <h1>Open incidents <FeedBadge state={feed} /></h1>
      <p role="status" aria-live="polite" aria-atomic="true" data-testid="incident-announcer" style={VISUALLY_HIDDEN}>{announced}</p>
      <ErrorNote error={error} />
      {state === 'loading' ? <p class="loading" data-testid="incidents-loading">Loading open incidents…</p> : null}
      {state === 'failed' ? (
        <div class="error" role="alert" data-testid="incidents-failed">
          <p>Could not read the open incidents: {loadError}</p>
          <button type="button" class="button primary" onClick={readList}>Retry</button>
        </div>
      ) : null}
      {state === 'empty' ? <p class="empty" data-testid="no-incidents">Nothing is burning.</p> : null}
      {rows.length > 0 ? (
        <table class="grid" data-testid="incidents">
          <thead>
            <tr><th>Severity</th><th>Rule</th><th>Reading</th><th>Status</th><th>Triggered</th><th><span style={VISUALLY_HIDDEN}>Actions</span></th></tr>
          </thead>
          <tbody>{rows.map((incident) => <IncidentRow key={incident.id} incident={incident} onChange={put} />)}</tbody>
        </table>
      ) : null}
    </section>
  );
}
