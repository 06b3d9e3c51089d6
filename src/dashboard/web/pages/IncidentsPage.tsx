/**
 * Incidents, open and resolved, live: the incident feed says which incident changed, and the row is read again
 * (GET /incidents/{id}), so the list always shows the read model's view. The feed is opened
 * before the list is read, so an incident triggered in between is not missed; and the list is read
 * again whenever the feed comes back after a drop (a restarted server), so it is never stale. When
 * the feed is refused or keeps failing, live updates pause with a note and the list is read every 15 s.
 *
 * The list has four states, each with its own element and `data-list-state`: loading, failed
 * (the reason and a retry), empty ("Nothing is burning.", only after a successful read) and
 * listed. Changes the feed brings are announced politely to screen readers (the tab title's count
 * of open incidents is the shell's, components/use-tab-title.ts, on every page).
 *
 * Filters (components/incident-filters.ts) live in the URL fragment; the API applies status,
 * severity, rule and time range, the page the cluster and the search. The first 200 incidents
 * are read, and "Show more" reads the next page. Incidents can be selected for a bulk
 * acknowledge or resolve.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { FeedState } from '../api/event-feed';
import { subscribeIncidentFeed } from '../api/incident-feed';
import type { Incident } from '../api/types';
import { ErrorNote } from '../components/ErrorNote';
import { FeedBadge, FeedPausedNote } from '../components/FeedBadge';
import { BulkIncidentActions } from '../components/BulkIncidentActions';
import { IncidentFilterBar } from '../components/IncidentFilterBar';
import { IncidentRow } from '../components/IncidentRow';
import {
  filtersFromHash,
  hashOf,
  isDefault,
  matches,
  rangeStart,
  serverQuery,
  STATUS_FILTERS,
  type IncidentFilters,
} from '../components/incident-filters';
import { usePeople } from '../components/use-people';
import { useSession } from '../components/session-context';

export const INCIDENT_FEED_EVENTS = [
  'IncidentTriggered',
  'IncidentAcknowledged',
  'IncidentResolved',
  'IncidentNoteAdded',
  'EscalationStarted',
  'EscalationNotStarted',
  'EscalationStageFired',
  'NotificationDelivered',
  'NotificationFailed',
] as const;
const LIST_EVENTS = new Set<string>(INCIDENT_FEED_EVENTS);

const SEVERITY_ORDER = { critical: 0, high: 1, medium: 2, low: 3 };

export type ListState = 'loading' | 'failed' | 'empty' | 'listed';

/** Read by screen readers, not shown (set through the CSSOM: the CSP allows no inline style attribute). */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: '0',
  border: '0',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** What a screen reader hears when the feed changes an incident (undefined: nothing worth saying). */
export function announcement(before: Incident | undefined, after: Incident): string | undefined {
  if (!before) return after.status === 'resolved' ? undefined : `New ${after.severity} incident: ${after.title}`;
  if (before.status !== after.status) return `${after.title} ${after.status}`;
  return undefined;
}

export function IncidentsPage() {
  const { api, calls, can } = useSession();
  const people = usePeople();
  const [filters, setFilters] = useState<IncidentFilters>(() => filtersFromHash(location.hash));
  const [incidents, setIncidents] = useState<Map<string, Incident>>(new Map());
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [feedNote, setFeedNote] = useState<string | undefined>(undefined);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const [announced, setAnnounced] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rules, setRules] = useState<{ id: string; name: string; cluster_id: string | null }[]>([]);
  const [now, setNow] = useState(Date.now());
  /** The list as last rendered: announcements compare against it. */
  const shown = useRef(incidents);
  shown.current = incidents;
  /** The filters and time range of the newest read: the feed's changes are judged by them. */
  const view = useRef({ filters, from: rangeStart(filters.range, now) });
  /** Which read of the list is the newest, and what the feed changed since it began (kept over it). */
  const round = useRef(0);
  const changedDuringRead = useRef(new Map<string, Incident>());
  /** The newest feed-driven read of each incident. */
  const newestRead = useRef(new Map<string, number>());

  const belongs = (incident: Incident) =>
    matches({ ...view.current.filters, cluster: '', q: '' }, incident, view.current.from);
  const put = (incident: Incident) => {
    changedDuringRead.current.set(incident.id, incident);
    setIncidents((current) => {
      const next = new Map(current);
      if (belongs(incident)) next.set(incident.id, incident);
      else next.delete(incident.id);
      return next;
    });
  };

  const fromFeed = (incident: Incident) => {
    const said = announcement(shown.current.get(incident.id), incident);
    if (said) setAnnounced(said);
    put(incident);
  };

  const readList = (cursor?: string) => {
    const mine = ++round.current;
    if (!cursor) changedDuringRead.current = new Map();
    setLoadError(undefined);
    const at = Date.now();
    // A next page is read with the query of the first (the same time range).
    if (!cursor) view.current = { filters: view.current.filters, from: rangeStart(view.current.filters.range, at) };
    calls.incidentsPage(serverQuery(view.current.filters, view.current.from), cursor).then(
      (answer) => {
        if (mine !== round.current) return;
        setIncidents((current) => {
          const next = new Map(cursor ? current : []);
          for (const incident of answer.data) next.set(incident.id, incident);
          for (const [id, incident] of changedDuringRead.current) {
            if (belongs(incident)) next.set(id, incident);
            else next.delete(id);
          }
          return next;
        });
        setNextCursor(answer.page.next_cursor);
        setNow(at);
        setLoaded(true);
      },
      (failure: Error) => mine === round.current && setLoadError(failure.message),
    );
  };

  useEffect(() => {
    const close = subscribeIncidentFeed(api, {
      onState: (state, note) => {
        setFeed(state);
        setFeedNote(note);
      },
      onReconnect: () => readList(),
      // Live updates paused (the stream refused or failing): the list is read again every 15 s.
      onPoll: () => readList(),
      onEvent: (name, data) => {
        if (!LIST_EVENTS.has(name)) return;
        const incidentId = (data as { incident_id?: string }).incident_id;
        if (name === 'IncidentAcknowledged') people.refresh();
        if (!incidentId) return;
        // Reads of one incident can answer out of order: only the newest one's answer is shown.
        const mine = (newestRead.current.get(incidentId) ?? 0) + 1;
        newestRead.current.set(incidentId, mine);
        calls.incident(incidentId).then(
          (incident) => newestRead.current.get(incidentId) === mine && fromFeed(incident),
          (failure: Error) => setError(failure.message),
        );
      },
    });
    // Rules to filter by, by name (without alerts:read, the rules the incidents name).
    if (can('alerts:read')) calls.alertRules().then(setRules, () => undefined);
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    const followHash = () =>
      location.hash.startsWith('#/incidents') &&
      !location.hash.startsWith('#/incidents/') &&
      setFilters(filtersFromHash(location.hash));
    addEventListener('hashchange', followHash);
    return () => {
      round.current += 1;
      close();
      clearInterval(tick);
      removeEventListener('hashchange', followHash);
    };
  }, [api]);

  /** What the API filters on: a change reads the list again. */
  const serverKey = `${filters.status}|${filters.severity}|${filters.rule}|${filters.range}`;
  useEffect(() => {
    view.current = { filters, from: view.current.from };
    setSelected(new Set());
    readList();
  }, [serverKey]);
  view.current = { filters, from: view.current.from };

  const changeFilters = (next: IncidentFilters) => {
    setFilters(next);
    history.replaceState(null, '', hashOf(next));
  };

  const loadedRows = [...incidents.values()];
  const rows = loadedRows
    .filter((incident) => matches(filters, incident, undefined))
    .sort(
      (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.triggered_at.localeCompare(a.triggered_at),
    );
  const state: ListState = loadError ? 'failed' : !loaded ? 'loading' : rows.length === 0 ? 'empty' : 'listed';
  const ruleChoices = useMemo(() => {
    const byId = new Map(rules.map((rule) => [rule.id, rule.name]));
    for (const incident of loadedRows)
      if (incident.rule_id !== null && !byId.has(incident.rule_id))
        byId.set(incident.rule_id, incident.rule_name ?? incident.title);
    return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [rules, incidents]);
  const clusters = useMemo(
    () =>
      [
        ...new Set(
          [
            ...rules.map((rule) => rule.cluster_id),
            ...loadedRows.map((incident) => incident.cluster_id),
            filters.cluster || null,
          ].filter((cluster): cluster is string => !!cluster),
        ),
      ].sort(),
    [rules, incidents, filters.cluster],
  );

  const selectable = can('incidents:write');
  const pickable = rows.filter((incident) => incident.status !== 'resolved');
  const picked = pickable.filter((incident) => selected.has(incident.id));
  const select = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const heading = filters.status === 'all' ? 'Incidents' : `${STATUS_FILTERS[filters.status]} incidents`;
  return (
    <section data-testid="incident-list" data-list-state={state}>
      <h1>
        {heading} <FeedBadge state={feed} note={feedNote} />
      </h1>
      <FeedPausedNote state={feed} note={feedNote} />
      <p role="status" aria-live="polite" aria-atomic="true" data-testid="incident-announcer" style={VISUALLY_HIDDEN}>
        {announced}
      </p>
      <IncidentFilterBar filters={filters} onChange={changeFilters} rules={ruleChoices} clusters={clusters} />
      <ErrorNote error={error} />
      {state === 'loading' ? (
        <p class="loading" data-testid="incidents-loading">
          Loading {heading.toLowerCase()}…
        </p>
      ) : null}
      {state === 'failed' ? (
        <div class="error" role="alert" data-testid="incidents-failed">
          <p>
            Could not read the {heading.toLowerCase()}: {loadError}
          </p>
          <button type="button" class="button primary" onClick={() => readList()}>
            Retry
          </button>
        </div>
      ) : null}
      {state === 'empty' ? (
        <p class="empty" data-testid="no-incidents">
          {isDefault(filters) ? 'Nothing is burning.' : 'No incidents match these filters.'}
        </p>
      ) : null}
      {selectable && pickable.length > 0 ? (
        <BulkIncidentActions selected={picked} onChange={put} onDone={() => setSelected(new Set())} />
      ) : null}
      {rows.length > 0 ? (
        <table class="grid" data-testid="incidents">
          <thead>
            <tr>
              {selectable ? (
                <th>
                  <input
                    type="checkbox"
                    aria-label="Select every incident shown"
                    disabled={pickable.length === 0}
                    checked={pickable.length > 0 && picked.length === pickable.length}
                    onChange={(event) =>
                      setSelected(
                        new Set(
                          (event.currentTarget as HTMLInputElement).checked
                            ? pickable.map((incident) => incident.id)
                            : [],
                        ),
                      )
                    }
                  />
                </th>
              ) : null}
              <th>Severity</th>
              <th>Rule</th>
              <th>Reading</th>
              <th>Status</th>
              <th>Triggered</th>
              <th>Acknowledged</th>
              <th>Resolved</th>
              <th>
                <span style={VISUALLY_HIDDEN}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((incident) => (
              <IncidentRow
                key={incident.id}
                incident={incident}
                onChange={put}
                who={people.who}
                now={now}
                selected={selected.has(incident.id)}
                onSelect={selectable ? (on) => select(incident.id, on) : undefined}
              />
            ))}
          </tbody>
        </table>
      ) : null}
      {loaded && nextCursor ? (
        <button type="button" class="button" onClick={() => readList(nextCursor)}>
          Show more
        </button>
      ) : null}
    </section>
  );
}
