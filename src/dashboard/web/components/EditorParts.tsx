/**
 * The parts every resource editor's form repeats: a labelled text field with its error, the policy and
 * severity choices, the stale-version offer, and Save/Cancel.
 */
import { SEVERITIES, type Severity } from '../../../contract/vocabulary';
import type { FieldProblem } from '../api/client';
import { FieldError, invalidProps } from './FieldError';

export function TextField({
  id,
  label,
  path,
  value,
  maxLength,
  errors,
  onInput,
}: {
  id: string;
  label: string;
  /** The body field's JSON Pointer, where the API's error for it is reported. */
  path: string;
  value: string;
  maxLength: number;
  errors: readonly FieldProblem[];
  onInput: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        value={value}
        maxLength={maxLength}
        onInput={(e) => onInput(e.currentTarget.value)}
        {...invalidProps(errors, path)}
      />
      <FieldError errors={errors} path={path} />
    </div>
  );
}

/** Offered after a 409 on an edit: read the version someone else saved, then change it again. */
export function LoadTheirVersion({ conflict, onLoad }: { conflict: boolean; onLoad: () => void }) {
  if (!conflict) return null;
  return (
    <div class="form-actions">
      <button type="button" class="button plain" onClick={onLoad}>
        Load their version
      </button>
    </div>
  );
}

export function SaveOrCancel({
  saving,
  ready,
  label,
  onClose,
}: {
  saving: boolean;
  /** The version being edited has loaded (a new resource is ready at once). */
  ready: boolean;
  label: string;
  onClose: () => void;
}) {
  return (
    <div class="form-actions">
      <button type="submit" class="button primary" disabled={saving || !ready}>
        {saving ? 'Saving…' : label}
      </button>
      <button type="button" class="button plain" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

/** The escalation policy a resource pages: chosen by name, its error under `/escalation_policy_id`. */
export function PolicyField({
  id,
  label = 'Escalation policy',
  value,
  policies,
  errors,
  onChange,
}: {
  id: string;
  label?: string;
  value: string;
  policies: readonly { id: string; name: string }[] | undefined;
  errors: readonly FieldProblem[];
  onChange: (policyId: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        {...invalidProps(errors, '/escalation_policy_id')}
      >
        <option value="">Choose a policy…</option>
        {(policies ?? []).map((policy) => (
          <option key={policy.id} value={policy.id}>
            {policy.name}
          </option>
        ))}
      </select>
      <FieldError errors={errors} path="/escalation_policy_id" />
    </div>
  );
}

/** One of the severities an incident may have. */
export function SeverityField({
  id,
  label = 'Severity',
  value,
  onChange,
}: {
  id: string;
  label?: string;
  /** Undefined where the body may leave it to the API's default (the form starts with one anyway). */
  value: Severity | undefined;
  onChange: (severity: Severity) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as Severity)}>
        {SEVERITIES.map((severity) => (
          <option key={severity} value={severity}>
            {severity}
          </option>
        ))}
      </select>
    </div>
  );
}
