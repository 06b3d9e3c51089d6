/**
 * One stage of an escalation policy: its delay (0 for the first: it fires when the incident opens),
 * its targets picked by name, the media for people targets, and moving or removing the stage.
 * The API's errors for `/stages/<i>/…` show beside the field they name.
 */
import type { FieldProblem } from '../api/client';
import type { PersonMedium } from '../api/types';
import { emptyTarget, MEDIA, type StageForm, type TargetForm } from './policy-form';
import { problemsAt } from './FieldError';
import { PagingField, PagingTextField } from './PagingTextField';
import { TARGET_GROUPS, type TargetChoice } from './use-policy-targets';

interface Props {
  stage: StageForm;
  index: number;
  count: number;
  errors: FieldProblem[];
  choices: TargetChoice[];
  onChange: (stage: StageForm) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

export function StageEditor({ stage, index, count, errors, choices, onChange, onMove, onRemove }: Props) {
  const at = `/stages/${index}`;
  const title = `Stage ${index + 1}`;
  const setTarget = (changed: TargetForm) =>
    onChange({ ...stage, targets: stage.targets.map((target) => (target.key === changed.key ? changed : target)) });
  // Errors about the stage itself (its numbering, its list of targets), not one of its fields.
  const own = problemsAt(errors, at).filter(
    (error) => !error.path.startsWith(`${at}/delay_minutes`) && !/^\/stages\/\d+\/targets\/\d+/.test(error.path),
  );
  return (
    <fieldset class="stage card" data-testid="stage">
      <legend>{title}</legend>
      {own.length > 0 ? <span class="field-error">{own.map((error) => error.message).join('; ')}</span> : null}
      {index === 0 ? (
        <p class="hint">Fires as soon as the incident opens (delay 0).</p>
      ) : (
        <PagingTextField
          label={`${title}: minutes after the stage before`}
          path={`${at}/delay_minutes`}
          type="number"
          value={stage.delay}
          onInput={(delay) => onChange({ ...stage, delay })}
          errors={errors}
        />
      )}
      <ul class="targets">
        {stage.targets.map((target, t) => {
          const path = `${at}/targets/${t}`;
          const isChannel = target.choice.startsWith('channel:');
          return (
            <li key={target.key} class="target">
              <PagingField
                label={`${title} target ${t + 1}`}
                path={path}
                errors={errors}
                control={(props) => (
                  <select
                    {...props}
                    value={target.choice}
                    onChange={(e) => setTarget({ ...target, choice: e.currentTarget.value })}
                  >
                    <option value="">Choose a person, group, schedule or channel…</option>
                    {TARGET_GROUPS.map((group) => {
                      const mine = choices.filter((choice) => choice.type === group.type);
                      return mine.length === 0 ? null : (
                        <optgroup key={group.type} label={group.label}>
                          {mine.map((choice) => (
                            <option key={choice.id} value={`${choice.type}:${choice.id}`}>
                              {choice.name}
                            </option>
                          ))}
                        </optgroup>
                      );
                    })}
                  </select>
                )}
              />
              {isChannel ? (
                <p class="hint">The channel decides how it delivers.</p>
              ) : (
                <fieldset class="media">
                  <legend>
                    {title} target {t + 1}: notify by
                  </legend>
                  {MEDIA.map((medium) => (
                    <label key={medium} class="inline">
                      <input
                        type="checkbox"
                        checked={target.channels.includes(medium)}
                        onChange={(e) =>
                          setTarget({
                            ...target,
                            channels: e.currentTarget.checked
                              ? [...target.channels, medium]
                              : target.channels.filter((m: PersonMedium) => m !== medium),
                          })
                        }
                      />{' '}
                      {medium}
                    </label>
                  ))}
                </fieldset>
              )}
              <button
                type="button"
                class="button plain"
                disabled={stage.targets.length === 1}
                onClick={() =>
                  onChange({ ...stage, targets: stage.targets.filter((other) => other.key !== target.key) })
                }
              >
                Remove {title.toLowerCase()} target {t + 1}
              </button>
            </li>
          );
        })}
      </ul>
      <div class="form-actions">
        <button
          type="button"
          class="button plain"
          onClick={() => onChange({ ...stage, targets: [...stage.targets, emptyTarget()] })}
        >
          Add target to {title.toLowerCase()}
        </button>
        <button type="button" class="button plain" disabled={index === 0} onClick={() => onMove(-1)}>
          Move {title.toLowerCase()} up
        </button>
        <button type="button" class="button plain" disabled={index === count - 1} onClick={() => onMove(1)}>
          Move {title.toLowerCase()} down
        </button>
        <button type="button" class="button danger" disabled={count === 1} onClick={onRemove}>
          Remove {title.toLowerCase()}
        </button>
      </div>
    </fieldset>
  );
}
