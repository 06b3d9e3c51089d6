/**
 * The alert rule editor's read-failure row: what a rule does when the warehouse cannot be read
 * (`on_error`) or answers nothing (`on_no_data`), and after how many minutes of it a page goes out.
 */
import { READ_FAILURE_STATES } from '../../../contract/vocabulary';
import type { FieldProblem } from '../api/client';
import { FieldError } from './FieldError';

type ReadFailureState = (typeof READ_FAILURE_STATES)[number];

/** What each setting means, as the options say it. */
const LABELS: Record<ReadFailureState, string> = {
  alerting: 'page (after the minutes below)',
  ok: 'do not page',
  keep_last: 'do not page, keep the last state',
};

export interface ReadFailureForm {
  onError: string;
  onNoData: string;
  errorFor: string;
}

function StateSelect({
  label,
  name,
  value,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (e: Event) => void;
}) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={onChange}>
        {READ_FAILURE_STATES.map((state) => (
          <option key={state} value={state}>
            {LABELS[state]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ReadFailureFields({
  form,
  errors,
  set,
  described,
}: {
  form: ReadFailureForm;
  errors: readonly FieldProblem[];
  /** The editor's change handler for a field of its form. */
  set: (field: keyof ReadFailureForm) => (event: Event) => void;
  /** The id of a body field's error, for aria-describedby, when it has one. */
  described: (field: string) => string | undefined;
}) {
  return (
    <>
      <div class="rule-editor-row">
        <StateSelect
          label="When the warehouse cannot be read"
          name="on_error"
          value={form.onError}
          onChange={set('onError')}
        />
        <StateSelect
          label="When it returns no data"
          name="on_no_data"
          value={form.onNoData}
          onChange={set('onNoData')}
        />
        <label>
          Page after (minutes)
          <input
            name="error_for_minutes"
            type="number"
            min="0"
            max="1440"
            value={form.errorFor}
            onInput={set('errorFor')}
            aria-describedby={described('error_for_minutes')}
          />
        </label>
      </div>
      <FieldError errors={errors} path="/on_error" />
      <FieldError errors={errors} path="/on_no_data" />
      <FieldError errors={errors} path="/error_for_minutes" />
    </>
  );
}
