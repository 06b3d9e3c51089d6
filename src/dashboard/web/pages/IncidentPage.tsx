/**
 * One incident, live: its actions, its one summary (now, or as of any event of its history with
 * the slider), notes, and its full history from /incidents/{id}/events (the history and the slider
 * need audit:read). The page follows the incident's own events on the incident feed and reads the
 * incident (and its history) again on each, so a stage fired later or an acknowledgement from
 * another tab shows without a reload.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { FeedState } from '../api/event-feed';
import { followIncident } from '../api/incident-feed';
import type { Incident } from '../api/types';
import { AsOfSlider } from '../components/AsOfSlider';
import { ErrorNote } from '../components/ErrorNote';
import { FeedBadge } from '../components/FeedBadge';
import { IncidentPageActions } from '../components/IncidentPageActions';
import { IncidentTimeline, type ChannelLabel } from '../components/IncidentTimeline';
import { NoteForm } from '../components/NoteForm';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { usePeople } from '../components/use-people';

/** Events naming someone the page may not know yet (a user created since the names were read). */
const NAMES_SOMEONE = new Set(['IncidentAcknowledged', 'IncidentResolved', 'IncidentNoteAdded', 'EscalationStageFired']);

export function IncidentPage({ incidentId }: { incidentId: string }) {
  const { api, calls, can } = useSession();
  const auditor = can('audit:read');
  const incident = useLoad(() => calls.incident(incidentId), [incidentId]);
  const events = useLoad(() => (auditor ? calls.incidentEvents(incidentId) : Promise.resolve([])), [incidentId]);
  const channels = useLoad(() => (can('channels:read') ? calls.channelNames() : Promise.resolve([])), []);
  const people = usePeople();
  // An action's answer shows at once, until the next read of the incident supersedes it.
  const [latest, setLatest] = useState<{ incident: Incident; over: Incident | undefined } | undefined>(undefined);
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [reached, setReached] = useState(Number.MAX_SAFE_INTEGER);

  const shown = latest && latest.over === incident.value && latest.incident.id === incidentId ? latest.incident : incident.value;
  const refresh = useCallback(() => {
    incident.reload();
    events.reload();
  }, [incident.reload, events.reload]);
  const changed = (next: Incident) => {
    setLatest({ incident: next, over: incident.value });
    events.reload();
  };

  useEffect(() => {
    return followIncident({
      api, incidentId, onState: setFeed,
      onChange: (cause) => {
        refresh();
        if (cause === 'live' || NAMES_SOMEONE.has(cause)) people.refresh();
      },
    });
  }, [api, incidentId]);

  const channelName: ChannelLabel = useMemo(() => {
    const names = new Map((channels.value ?? []).map((c) => [c.id, `${c.name} (${c.type} channel)`]));
    return (id: string) => names.get(id);
  }, [channels.value]);
  const history = events.value ?? [];

  return (
    <section>
      <p><a href="#/incidents">← Open incidents</a></p>
      <ErrorNote error={incident.error} />
      {shown ? (
        <>
          <h1>{shown.rule_name} <FeedBadge state={feed} /></h1>
          <IncidentPageActions incident={shown} onChange={changed} onRefused={refresh} />
          <AsOfSlider key={incidentId} incident={shown} events={history} who={people.who} onPosition={setReached} />
          <NoteForm incidentId={incidentId} onChange={changed} />
        </>
      ) : null}
      {auditor ? (
        <>
          <h2>History</h2>
          <ErrorNote error={events.error} />
          <IncidentTimeline events={history} reached={reached} who={people.who} channel={channelName} />
        </>
      ) : (
        <p class="muted">The history and the time slider need the permission audit:read.</p>
      )}
    </section>
  );
}

