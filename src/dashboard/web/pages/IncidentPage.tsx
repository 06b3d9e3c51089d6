/**
 * One incident, live: its actions, its escalation now (rule and policy linked, the current stage,
 * when it escalates next and to whom, who is on call now for its schedules, who was paged), its
 * one summary (now, or as of any event of its history with the slider), notes, and its full
 * history from /incidents/{id}/events (the history and the slider need audit:read). The page
 * follows the incident's own events on the incident feed and reads the incident (and its history)
 * again on each, so a stage fired later or an acknowledgement from another tab shows without a
 * reload, and what comes next with it.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { FeedState } from '../api/event-feed';
import { followIncident } from '../api/incident-feed';
import type { Incident } from '../api/types';
import { AsOfSlider } from '../components/AsOfSlider';
import { EscalationOutlook } from '../components/EscalationOutlook';
import { escalationOutlook, planFromHistory, planFromPolicy, scheduleIds } from '../components/escalation-outlook';
import { ErrorNote } from '../components/ErrorNote';
import { FeedBadge, FeedPausedNote } from '../components/FeedBadge';
import { IncidentPageActions } from '../components/IncidentPageActions';
import { IncidentTimeline, type ChannelLabel } from '../components/IncidentTimeline';
import { NoteForm } from '../components/NoteForm';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { useOncallNow } from '../components/use-oncall-now';
import { usePeople } from '../components/use-people';
import { usePolicyTargets } from '../components/use-policy-targets';

/** Events naming someone the page may not know yet (a user created since the names were read). */
const NAMES_SOMEONE = new Set([
  'IncidentAcknowledged',
  'IncidentResolved',
  'IncidentNoteAdded',
  'EscalationStageFired',
]);

export function IncidentPage({ incidentId }: { incidentId: string }) {
  const { api, calls, can } = useSession();
  const auditor = can('audit:read');
  const incident = useLoad(() => calls.incident(incidentId), [incidentId]);
  const events = useLoad(() => (auditor ? calls.incidentEvents(incidentId) : Promise.resolve([])), [incidentId]);
  const channels = useLoad(() => (can('channels:read') ? calls.channelNames() : Promise.resolve([])), []);
  const people = usePeople();
  const choices = usePolicyTargets();
  // An action's answer shows at once, until the next read of the incident supersedes it.
  const [latest, setLatest] = useState<{ incident: Incident; over: Incident | undefined } | undefined>(undefined);
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [feedNote, setFeedNote] = useState<string | undefined>(undefined);
  const [reached, setReached] = useState(Number.MAX_SAFE_INTEGER);

  const shown =
    latest && latest.over === incident.value && latest.incident.id === incidentId ? latest.incident : incident.value;
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
      api,
      incidentId,
      onState: (state, note) => {
        setFeed(state);
        setFeedNote(note);
      },
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

  // The plan the escalation took (the history's EscalationStarted); without the history, the policy as it is now.
  const started = useMemo(() => planFromHistory(history), [events.value]);
  const policyId = incident.value?.escalation_policy_id;
  const needsPolicy =
    !started && (!auditor || events.value !== undefined || events.error !== undefined) && can('escalation:read');
  const policy = useLoad(
    () => (needsPolicy && policyId ? calls.policy(policyId) : Promise.resolve(undefined)),
    [policyId, needsPolicy],
  );
  const plan = started ?? (policy.value ? planFromPolicy(policy.value) : undefined);
  const schedules = useMemo(() => scheduleIds(plan), [plan]);
  const lastChange = shown ? `${shown.status}|${shown.escalation?.current_stage?.fired_at ?? ''}` : '';
  const oncall = useOncallNow(schedules, lastChange);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(tick);
  }, []);
  useEffect(() => setNow(Date.now()), [shown]);

  return (
    <section>
      <p>
        <a href="#/incidents">← Open incidents</a>
      </p>
      <ErrorNote error={incident.error} />
      {shown ? (
        <>
          <h1>
            {shown.title} <FeedBadge state={feed} note={feedNote} />
          </h1>
          <FeedPausedNote state={feed} note={feedNote} />
          <IncidentPageActions incident={shown} onChange={changed} onRefused={refresh} />
          <EscalationOutlook
            incident={shown}
            plan={plan}
            outlook={escalationOutlook(shown, plan)}
            schedules={schedules}
            oncall={oncall}
            choices={choices}
            who={people.who}
            channel={channelName}
            now={now}
          />
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
