/**
 * The incident's one summary, with a slider over its history: each position is one event of the
 * history (oldest at the left), so a young incident with five events has five positions, not one
 * per second. At the last position (where it starts, and stays while the history grows) the summary
 * is the incident now, as the page read it; before that it is the incident as it was just after
 * that event (GET /incidents/{id}?as_of=<the event's time>), read once the slider rests a moment
 * so dragging does not send a request per position.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Incident, IncidentEvent } from '../api/types';
import { time } from '../format';
import { ErrorNote } from './ErrorNote';
import { IncidentSummary } from './IncidentSummary';
import { useSession } from './session-context';
import type { Who } from './use-people';

const SETTLE_MS = 150;

interface Props {
  incident: Incident;
  /** The history, oldest first; empty without audit:read (then there is no slider, the summary is now). */
  events: IncidentEvent[];
  who: Who;
  /** The position shown (index into `events`), for the history to mark what is ahead of it. */
  onPosition: (index: number) => void;
}

export function AsOfSlider({ incident, events, who, onPosition }: Props) {
  const { calls } = useSession();
  const last = events.length - 1;
  // null: follow the newest event.
  const [chosen, setChosen] = useState<number | null>(null);
  const position = chosen === null || chosen >= last ? last : chosen;
  const past = position < last ? events[position] : undefined;
  const [state, setState] = useState<Incident | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    onPosition(position);
    if (!past) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      calls.incidentAsOf(incident.id, new Date(past.occurred_at)).then(
        (then) => current && (setState(then), setError(undefined)),
        (failure: Error) => current && setError(failure.message),
      );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [position, past?.id, incident.id]);
  const shown = past ? state : incident;
  return (
    <section class="as-of">
      <h2>
        {past ? (
          <>
            As of <time data-testid="as-of-moment">{time(past.occurred_at)}</time>, after {past.type}
          </>
        ) : (
          <>Now</>
        )}
        {past ? (
          <>
            {' '}
            <button type="button" class="button plain" onClick={() => setChosen(null)}>
              Back to now
            </button>
          </>
        ) : null}
      </h2>
      {events.length > 1 ? (
        <input
          type="range"
          aria-label="moment"
          min={0}
          max={last}
          step={1}
          value={position}
          aria-valuetext={`${position + 1} of ${events.length}: ${events[position]!.type}, ${time(events[position]!.occurred_at)}`}
          onInput={(e) => {
            const index = Number(e.currentTarget.value);
            setChosen(index >= last ? null : index);
          }}
        />
      ) : null}
      <ErrorNote error={past ? error : undefined} />
      {shown ? <IncidentSummary incident={shown} who={who} /> : null}
    </section>
  );
}
