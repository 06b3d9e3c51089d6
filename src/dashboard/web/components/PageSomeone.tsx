/**
 * "Page someone" (issue 40): opens an incident by hand on an escalation policy, which pages as any
 * other (POST /api/v1/incidents, source `manual`, recorded as the signed-in person).
 */
import { useState } from 'preact/hooks';
import type { Incident, ManualIncidentBody, PolicyName } from '../api/types';
import { PolicyField, SeverityField, TextField } from './EditorParts';
import { FormProblem, errorsOf } from './FieldError';
import { useSession } from './session-context';

const CLAIMED = /^\/(title|severity|details|escalation_policy_id)(\/|$)/;

export function PageSomeone({
  policies,
  onPaged,
  onClose,
}: {
  policies: PolicyName[] | undefined;
  onPaged: (incident: Incident) => void;
  onClose: () => void;
}) {
  const { calls } = useSession();
  const [body, setBody] = useState<ManualIncidentBody>({ title: '', severity: 'high', escalation_policy_id: '' });
  const [details, setDetails] = useState('');
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [sending, setSending] = useState(false);
  const errors = errorsOf(failure);
  const set = (change: Partial<ManualIncidentBody>) => setBody((current) => ({ ...current, ...change }));
  const send = async (event: Event) => {
    event.preventDefault();
    setSending(true);
    setFailure(undefined);
    try {
      onPaged(await calls.pageByHand({ ...body, ...(details.trim() ? { details } : {}) }));
    } catch (error) {
      setFailure(error as Error);
    } finally {
      setSending(false);
    }
  };
  return (
    <form
      class="editor card"
      data-testid="page-someone"
      aria-label="Page someone"
      onSubmit={(e) => void send(e)}
      noValidate
    >
      <h2>Page someone</h2>
      <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
      <TextField
        id="page-title"
        label="What is wrong"
        path="/title"
        value={body.title}
        maxLength={1024}
        errors={errors}
        onInput={(title) => set({ title })}
      />
      <div class="field">
        <label for="page-details">Details (optional)</label>
        <textarea
          id="page-details"
          maxLength={2000}
          value={details}
          onInput={(e) => setDetails(e.currentTarget.value)}
        />
      </div>
      <PolicyField
        id="page-policy"
        label="Who: escalation policy"
        value={body.escalation_policy_id}
        policies={policies}
        errors={errors}
        onChange={(escalation_policy_id) => set({ escalation_policy_id })}
      />
      <SeverityField id="page-severity" value={body.severity} onChange={(severity) => set({ severity })} />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={sending}>
          Page now
        </button>
        <button type="button" class="button plain" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
