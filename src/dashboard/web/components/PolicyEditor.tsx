/**
 * Creates or replaces an escalation policy: name, description, repeat interval and its stages
 * (StageEditor). Saving sends the whole policy (PUT replaces every stage); the API's validation
 * errors show beside the fields they name, and any it names elsewhere above the form. Beside the
 * form, who the draft would page if it fired now (EscalationPreviewPanel), before it is saved.
 */
import { useState } from 'preact/hooks';
import type { EscalationPolicy } from '../api/types';
import { EscalationPreviewPanel } from './EscalationPreviewPanel';
import { errorsOf, FormProblem } from './FieldError';
import { PagingTextField } from './PagingTextField';
import { draftOf, emptyStage, policyForm, type PolicyForm, type StageForm } from './policy-form';
import { useSession } from './session-context';
import { StageEditor } from './StageEditor';
import type { TargetChoice } from './use-policy-targets';

const CLAIMED = /^\/(name|description|repeat_interval_minutes|stages\/\d+)(\/|$)/;

interface Props {
  policy?: EscalationPolicy;
  choices: TargetChoice[];
  onSaved: (saved: EscalationPolicy) => void;
  onCancel: () => void;
}

export function PolicyEditor({ policy, choices, onSaved, onCancel }: Props) {
  const { calls } = useSession();
  const [form, setForm] = useState<PolicyForm>(() => policyForm(policy));
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const errors = errorsOf(failure);
  const set = (change: Partial<PolicyForm>) => setForm((current) => ({ ...current, ...change }));
  const setStages = (stages: StageForm[]) => set({ stages });

  const move = (index: number, by: -1 | 1) => {
    const stages = [...form.stages];
    const [moved] = stages.splice(index, 1);
    stages.splice(index + by, 0, moved!);
    setStages(stages);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    try {
      const draft = draftOf(form);
      onSaved(policy ? await calls.replacePolicy(policy.id, draft) : await calls.createPolicy(draft));
    } catch (error) {
      setFailure(error as Error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div class="policy-workbench">
      <form
        class="editor card"
        onSubmit={(e) => void save(e)}
        noValidate
        aria-label={policy ? `Edit policy ${policy.name}` : 'New escalation policy'}
      >
        <h2>{policy ? `Edit ${policy.name}` : 'New escalation policy'}</h2>
        <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
        <PagingTextField
          label="Name"
          path="/name"
          value={form.name}
          onInput={(name) => set({ name })}
          errors={errors}
        />
        <PagingTextField
          label="Description"
          path="/description"
          value={form.description}
          onInput={(description) => set({ description })}
          errors={errors}
          multiline
        />
        <PagingTextField
          label="Repeat every (minutes)"
          hint="0: no repeat; while unacknowledged, the stages start over after this long"
          path="/repeat_interval_minutes"
          type="number"
          value={form.repeat}
          onInput={(repeat) => set({ repeat })}
          errors={errors}
        />
        {form.stages.map((stage, index) => (
          <StageEditor
            key={stage.key}
            stage={stage}
            index={index}
            count={form.stages.length}
            errors={errors}
            choices={choices}
            onChange={(changed) => setStages(form.stages.map((other) => (other.key === changed.key ? changed : other)))}
            onMove={(by) => move(index, by)}
            onRemove={() => setStages(form.stages.filter((other) => other.key !== stage.key))}
          />
        ))}
        <div class="form-actions">
          <button
            type="button"
            class="button plain"
            disabled={form.stages.length >= 20}
            onClick={() => setStages([...form.stages, emptyStage('15')])}
          >
            Add stage
          </button>
          <button type="submit" class="button primary" disabled={saving}>
            {policy ? 'Save policy' : 'Create policy'}
          </button>
          <button type="button" class="button plain" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
      <EscalationPreviewPanel subject={{ kind: 'draft', draft: draftOf(form) }} />
    </div>
  );
}
