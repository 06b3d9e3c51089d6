/**
 * Who gets paged if this fires now (or at a chosen instant): each stage, when it fires, and every
 * recipient as the escalation manager would resolve them (POST /escalation-policies/preview for the
 * editor's unsaved draft, GET /escalation-policies/{id}/preview for a saved policy). Asked a moment
 * after the last change, as the schedule preview is; an answer that arrives after a newer change is
 * dropped. A draft the API refuses says why here, in the panel: the form's own field errors come
 * only from saving, so a half-typed draft never marks the form invalid.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { EscalationPolicyDraft, EscalationPreview } from '../api/types';
import { time } from '../format';
import {
  fireClock,
  instantOf,
  previewableDraft,
  problemsInWords,
  recipientName,
  stageTitle,
  unreachableName,
  whenItFires,
} from '../escalation-preview-words';
import { PREVIEW_DEBOUNCE_MS } from './SchedulePreview';
import { useSession } from './session-context';

/** The editor's draft, or a saved policy by id. */
export type PreviewSubject =
  | { kind: 'draft'; draft: EscalationPolicyDraft }
  | { kind: 'saved'; policyId: string; name: string };

type State =
  | { kind: 'waiting' }
  | { kind: 'not-yet'; why: string }
  | { kind: 'shown'; preview: EscalationPreview }
  | { kind: 'refused'; message: string; problems: string[] };

let panels = 0;

export function EscalationPreviewPanel({ subject }: { subject: PreviewSubject }) {
  const { calls } = useSession();
  const [ids] = useState(() => `policy-preview-${++panels}`);
  const [local, setLocal] = useState('');
  const [state, setState] = useState<State>({ kind: 'waiting' });
  const [pending, setPending] = useState(true);
  const round = useRef(0);
  const asked = subject.kind === 'draft' ? previewableDraft(subject.draft) : undefined;
  // What is asked, as a string: a change of it (not a new object with the same content) asks again.
  const question = subject.kind === 'saved' ? `saved:${subject.policyId}` : JSON.stringify(asked);
  const at = instantOf(local);
  const atKey = at?.toISOString() ?? 'now';

  useEffect(() => {
    const mine = ++round.current;
    if (asked?.kind === 'not-yet') {
      setState({ kind: 'not-yet', why: asked.why });
      setPending(false);
      return undefined;
    }
    setPending(true);
    const timer = setTimeout(() => {
      const answer =
        subject.kind === 'saved'
          ? calls.previewPolicy(subject.policyId, at)
          : calls.previewPolicyDraft((asked as { draft: EscalationPolicyDraft }).draft, at);
      answer.then(
        (preview) => mine === round.current && (setState({ kind: 'shown', preview }), setPending(false)),
        (failure: Error) => {
          if (mine !== round.current) return;
          setState({
            kind: 'refused',
            message: failure.message,
            problems: failure instanceof ApiError ? problemsInWords(failure.errors) : [],
          });
          setPending(false);
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [question, atKey]);

  const shown = state.kind === 'shown' ? state.preview : undefined;
  return (
    <section
      class="policy-preview card"
      aria-labelledby={`${ids}-title`}
      data-testid="policy-preview"
      aria-busy={pending}
    >
      <h3 id={`${ids}-title`}>
        Who gets paged{subject.kind === 'saved' ? ` by ${subject.name}` : ''}{' '}
        {at ? `if it fired at ${time(at.toISOString())}` : 'if it fires now'}
        {subject.kind === 'draft' ? <span class="muted"> (unsaved)</span> : null}
        {pending ? <span class="muted"> (updating…)</span> : null}
      </h3>
      <div class="preview-at">
        <label for={`${ids}-at`}>If it fired at</label>
        <input
          id={`${ids}-at`}
          type="datetime-local"
          value={local}
          onInput={(e) => setLocal(e.currentTarget.value)}
          aria-describedby={`${ids}-at-hint`}
        />
        {local !== '' ? (
          <button type="button" class="button plain" onClick={() => setLocal('')}>
            Now
          </button>
        ) : null}
        <span id={`${ids}-at-hint`} class="hint">
          empty: now, your time zone
        </span>
      </div>
      <div role="status">
        {state.kind === 'waiting' ? <p class="loading">Working out who gets paged…</p> : null}
        {state.kind === 'not-yet' ? <p class="hint">{state.why}</p> : null}
        {state.kind === 'refused' ? (
          <div class="notice">
            <p>Preview unavailable: {state.message}</p>
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
      {shown ? (
        <>
          <ol class="preview-stages">
            {shown.stages.map((stage) => (
              <li key={`${stage.cycle}-${stage.stage_order}`} data-testid="preview-stage">
                <h4>
                  {stageTitle(stage)}: {whenItFires(stage.offset_minutes)}{' '}
                  <time class="muted" dateTime={stage.fires_at}>
                    ({fireClock(stage.fires_at, shown.at)})
                  </time>
                </h4>
                <ul class="preview-recipients">
                  {stage.recipients.map((recipient) => (
                    <li key={`${recipient.delivery_target}-${recipient.medium}`}>
                      <strong>{recipientName(recipient)}</strong> <span class="badge">{recipient.medium}</span>{' '}
                      <code>{recipient.address}</code>
                      <div class="muted">{recipient.why}</div>
                    </li>
                  ))}
                  {stage.unreachable.map((target, index) => (
                    <li key={`unreachable-${index}`} class="unreachable">
                      <strong>{unreachableName(target)}</strong>
                      {target.medium ? (
                        <>
                          {' '}
                          <span class="badge">{target.medium}</span>
                        </>
                      ) : null}{' '}
                      <span class="unreachable-label">unreachable</span>
                      <div>{target.reason}</div>
                    </li>
                  ))}
                  {stage.recipients.length === 0 && stage.unreachable.length === 0 ? (
                    <li class="muted">Nobody.</li>
                  ) : null}
                </ul>
              </li>
            ))}
          </ol>
          <p class="hint">
            {shown.repeat
              ? `Repeats: ${shown.repeat.description.replace(/\.$/, '')}.`
              : 'Does not repeat: after the last stage nobody else is paged.'}
          </p>
        </>
      ) : null}
    </section>
  );
}
