/**
 * Acknowledge or resolve the selected incidents at once: each is sent on its own (the API has
 * no batch command), and the answer says how many it did and which it refused, and why (an
 * incident resolved meanwhile, a missing permission). Shown only to incidents:write holders.
 */
import { useState } from 'preact/hooks';
import type { Incident } from '../api/types';
import { useSession } from './session-context';

type Verb = 'acknowledge' | 'resolve';
const DONE: Record<Verb, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };

interface Outcome {
  verb: Verb;
  done: number;
  refused: { ruleName: string; reason: string }[];
}

interface Props {
  selected: Incident[];
  onChange: (incident: Incident) => void;
  /** After a bulk action: the selection is spent. */
  onDone: () => void;
}

export function BulkIncidentActions({ selected, onChange, onDone }: Props) {
  const { calls, can } = useSession();
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  if (!can('incidents:write')) return null;

  const run = async (verb: Verb) => {
    setRunning(true);
    setOutcome(undefined);
    const answers = await Promise.allSettled(selected.map((incident) => calls[verb](incident.id)));
    const refused: Outcome['refused'] = [];
    answers.forEach((answer, i) => {
      if (answer.status === 'fulfilled') onChange(answer.value);
      else refused.push({ ruleName: selected[i]!.title, reason: (answer.reason as Error).message });
    });
    setOutcome({ verb, done: answers.length - refused.length, refused });
    setRunning(false);
    onDone();
  };

  const none = selected.length === 0 || running;
  return (
    <div class="bulk" data-testid="bulk-actions">
      <span class="muted">{selected.length} selected</span>
      <button type="button" class="button primary" disabled={none} onClick={() => void run('acknowledge')}>
        Acknowledge selected
      </button>
      <button type="button" class="button" disabled={none} onClick={() => void run('resolve')}>
        Resolve selected
      </button>
      <div role="status" data-testid="bulk-summary">
        {outcome ? (
          <>
            <span>
              {outcome.done} {DONE[outcome.verb]}
              {outcome.refused.length > 0 ? `, ${outcome.refused.length} refused:` : '.'}
            </span>
            {outcome.refused.length > 0 ? (
              <ul class="error">
                {outcome.refused.map((refusal, i) => (
                  <li key={i}>
                    {refusal.ruleName}: {refusal.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : null}
      </div>
    </div>
  );
}
