/**
 * The next days of an unsaved schedule, as the server will render it once saved: the draft goes to
 * POST /api/v1/schedules/preview (the same checks and schedule math as the saved schedule's range
 * query) a moment after the last change, and the answer is drawn with the on-call timeline. An
 * answer that arrives after a newer change is dropped; a draft the API refuses says why, in place.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { ScheduleDraft, SchedulePreview as Preview } from '../api/types';
import { time } from '../format';
import { OncallTimeline } from './OncallTimeline';
import { useSession } from './session-context';

export const PREVIEW_DAYS = 14;
/** Long enough to let someone finish typing a date, short enough to feel live. */
export const PREVIEW_DEBOUNCE_MS = 400;

type State =
  | { kind: 'waiting' }
  | { kind: 'shown'; preview: Preview }
  | { kind: 'refused'; message: string; problems: string[] };

export function SchedulePreview({ draft }: { draft: ScheduleDraft }) {
  const { calls } = useSession();
  const [since] = useState(() => new Date());
  const [state, setState] = useState<State>({ kind: 'waiting' });
  const [pending, setPending] = useState(true);
  const round = useRef(0);
  // The name does not change who is on call; a schedule not yet named still previews.
  const body = JSON.stringify({ ...draft, name: draft.name.trim() || 'Unnamed schedule' });

  useEffect(() => {
    const mine = ++round.current;
    setPending(true);
    const timer = setTimeout(() => {
      calls.previewSchedule(JSON.parse(body) as ScheduleDraft, since, PREVIEW_DAYS).then(
        (preview) => mine === round.current && (setState({ kind: 'shown', preview }), setPending(false)),
        (failure: Error) => {
          if (mine !== round.current) return;
          const problems =
            failure instanceof ApiError ? failure.errors.map((error) => `${error.path}: ${error.message}`) : [];
          setState({ kind: 'refused', message: failure.message, problems });
          setPending(false);
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [body]);

  const now = Date.now();
  const current =
    state.kind === 'shown'
      ? state.preview.segments.find((s) => Date.parse(s.start) <= now && now < Date.parse(s.end))
      : undefined;
  return (
    <section
      class="schedule-preview card"
      aria-labelledby="schedule-preview-title"
      data-testid="schedule-preview"
      aria-busy={pending}
    >
      <h3 id="schedule-preview-title">
        Preview: the next {PREVIEW_DAYS} days, unsaved {pending ? <span class="muted">(updating…)</span> : null}
      </h3>
      <div role="status">
        {state.kind === 'waiting' ? <p class="loading">Rendering the preview…</p> : null}
        {state.kind === 'shown' ? (
          <p>
            {current ? (
              <>
                Would be on call now: <strong>{current.name}</strong> until {time(current.end)} ({current.source})
              </>
            ) : (
              'Nobody would be on call now.'
            )}
            {state.preview.segments.length === 0 ? ' Nobody is on call in these days.' : ''}
          </p>
        ) : null}
        {state.kind === 'refused' ? (
          <div class="notice">
            <p>No preview yet: {state.message}</p>
            {state.problems.length > 0 ? (
              <ul>
                {state.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
      {state.kind === 'shown' ? (
        <OncallTimeline
          segments={state.preview.segments}
          since={since.getTime()}
          until={since.getTime() + PREVIEW_DAYS * 86_400_000}
        />
      ) : null}
    </section>
  );
}
