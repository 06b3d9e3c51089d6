/**
 * A time slider over the incident's life, from its first event to its last (or now, while it is
 * open): the incident as it was at the chosen moment (GET /incidents/{id}?as_of=). Reads wait for
 * the slider to rest a moment, so dragging does not send a request per pixel. Until the slider is
 * moved it follows the end of the span (the present, as the history grows).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Incident } from '../api/types';
import { time } from '../format';
import { ErrorNote } from './ErrorNote';
import { IncidentSummary } from './IncidentSummary';
import { useSession } from './session-context';

const SETTLE_MS = 150;

export function AsOfSlider({ incidentId, from, to, onMoment }: { incidentId: string; from: number; to: number; onMoment: (at: number) => void }) {
  const { calls } = useSession();
  const [chosen, setChosen] = useState<number | null>(null);
  const at = chosen ?? to;
  const [state, setState] = useState<Incident | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      calls.incidentAsOf(incidentId, new Date(at)).then(
        (incident) => current && (setState(incident), setError(undefined)),
        (failure: Error) => current && setError(failure.message),
      );
    }, SETTLE_MS);
    onMoment(at);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [at, incidentId]);
  return (
    <section class="as-of">
      <h2>As of <time data-testid="as-of-moment">{time(new Date(at).toISOString())}</time></h2>
      <input
        type="range" aria-label="moment" min={from} max={to} step={1000} value={at}
        onInput={(e) => setChosen(Number(e.currentTarget.value))}
      />
      <ErrorNote error={error} />
      {state ? <IncidentSummary incident={state} /> : null}
    </section>
  );
}
