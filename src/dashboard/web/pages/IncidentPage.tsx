/**
 * One incident: its state now with the actions and notes, its full history from
 * /incidents/{id}/events, and the slider that shows it as of any moment (both need audit:read).
 */
import { useMemo, useState } from 'preact/hooks';
import type { Incident } from '../api/types';
import { AsOfSlider } from '../components/AsOfSlider';
import { ErrorNote } from '../components/ErrorNote';
import { IncidentActions } from '../components/IncidentActions';
import { IncidentSummary } from '../components/IncidentSummary';
import { IncidentTimeline } from '../components/IncidentTimeline';
import { NoteForm } from '../components/NoteForm';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';

export function IncidentPage({ incidentId }: { incidentId: string }) {
  const { calls, can } = useSession();
  const incident = useLoad(() => calls.incident(incidentId), [incidentId]);
  const events = useLoad(() => (can('audit:read') ? calls.incidentEvents(incidentId) : Promise.resolve([])), [incidentId]);
  const [latest, setLatest] = useState<Incident | undefined>(undefined);
  const [moment, setMoment] = useState(Date.now());
  const shown = latest ?? incident.value;
  const changed = (next: Incident) => {
    setLatest(next);
    events.reload();
  };
  const history = events.value ?? [];
  // The slider spans the history as loaded: to its last event once resolved, else to when it was read.
  const span = useMemo(() => {
    if (history.length === 0) return undefined;
    const last = Date.parse(history[history.length - 1]!.occurred_at);
    return { from: Date.parse(history[0]!.occurred_at), to: shown?.status === 'resolved' ? last : Math.max(last, Date.now()) };
  }, [events.value]);
  return (
    <section>
      <p><a href="#/incidents">← Open incidents</a></p>
      <ErrorNote error={incident.error} />
      {shown ? (
        <>
          <h1>{shown.rule_name} <IncidentActions incident={shown} onChange={changed} /></h1>
          <IncidentSummary incident={shown} />
          <NoteForm incidentId={incidentId} onChange={changed} />
        </>
      ) : null}
      {can('audit:read') ? (
        <>
          <ErrorNote error={events.error} />
          {span ? <AsOfSlider key={incidentId} incidentId={incidentId} from={span.from} to={span.to} onMoment={setMoment} /> : null}
          <h2>History</h2>
          <IncidentTimeline events={history} until={moment} />
        </>
      ) : (
        <p class="muted">The history and the time slider need the permission audit:read.</p>
      )}
    </section>
  );
}
