/**
 * One override: who covers (by name), from when to when (wall clocks in the schedule's zone) and
 * why. A later override wins where two overlap. The API's errors for `/overrides/<i>/…` show beside
 * the field they name, e.g. an end before the start.
 */
import type { FieldProblem } from '../api/client';
import type { UserName } from '../api/types';
import { PagingField, PagingTextField } from './PagingTextField';
import type { OverrideForm } from './schedule-form';

interface Props {
  override: OverrideForm;
  index: number;
  errors: FieldProblem[];
  people: UserName[];
  timezone: string;
  onChange: (override: OverrideForm) => void;
  onRemove: () => void;
}

export function OverrideEditor({ override, index, errors, people, timezone, onChange, onRemove }: Props) {
  const at = `/overrides/${index}`;
  const title = `Override ${index + 1}`;
  const own = errors.filter((error) => error.path === at);
  const time = (field: 'start' | 'end', label: string) => (
    <PagingField
      label={`${title}: ${label}`}
      path={`${at}/${field}`}
      errors={errors}
      control={(props) => (
        <input
          type="datetime-local"
          {...props}
          value={override[field]}
          onInput={(e) => onChange({ ...override, [field]: e.currentTarget.value })}
        />
      )}
    />
  );
  return (
    <fieldset class="override card" data-testid="override">
      <legend>{title}</legend>
      {own.length > 0 ? <span class="field-error">{own.map((error) => error.message).join('; ')}</span> : null}
      <PagingField
        label={`${title}: who covers`}
        path={`${at}/user_id`}
        errors={errors}
        control={(props) => (
          <select
            {...props}
            value={override.userId}
            onChange={(e) => onChange({ ...override, userId: e.currentTarget.value })}
          >
            <option value="">Choose a person…</option>
            {people
              .filter((person) => !person.removed || person.id === override.userId)
              .map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
          </select>
        )}
      />
      <p class="hint">Times are wall clocks in {timezone}.</p>
      <div class="field-row">
        {time('start', 'from')}
        {time('end', 'until')}
      </div>
      <PagingTextField
        label={`${title}: reason`}
        path={`${at}/reason`}
        value={override.reason}
        onInput={(reason) => onChange({ ...override, reason })}
        errors={errors}
      />
      <div class="form-actions">
        <button type="button" class="button danger" onClick={onRemove}>
          Remove {title.toLowerCase()}
        </button>
      </div>
    </fieldset>
  );
}
