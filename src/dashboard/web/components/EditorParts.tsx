/** The parts every resource editor's form repeats: a labelled text field with its error, the stale-version offer, and Save/Cancel. */
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
