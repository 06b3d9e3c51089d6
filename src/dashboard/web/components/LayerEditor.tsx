/**
 * One rotation layer: its ordered pool of people (picked by name, moved up and down, removed), how
 * often it hands over, and the wall clock in the schedule's zone its first turn starts. The API's
 * errors for `/layers/<i>/…` show beside the part they name (an empty pool beside the picker, an
 * unknown person beside that person).
 */
import type { FieldProblem } from '../api/client';
import type { UserName } from '../api/types';
import { FieldError } from './FieldError';
import { PagingField } from './PagingTextField';
import { moved, type LayerForm } from './schedule-form';

interface Props {
  layer: LayerForm;
  index: number;
  count: number;
  errors: FieldProblem[];
  people: UserName[];
  timezone: string;
  onChange: (layer: LayerForm) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** A person's name; someone removed from the tenant since still shows, by a short id. */
export const nameOf = (people: UserName[], userId: string) =>
  people.find((p) => p.id === userId)?.name ?? `someone removed (${userId.slice(0, 8)})`;

export function LayerEditor({ layer, index, count, errors, people, timezone, onChange, onMove, onRemove }: Props) {
  const at = `/layers/${index}`;
  const title = `Layer ${index + 1}`;
  const pool = `${at}/user_ids`;
  // Errors about the pool as a whole (empty, too long); those naming one person show beside that person.
  const poolErrors = errors.filter((error) => error.path === pool);
  const own = errors.filter((error) => error.path === at);
  const choosable = people.filter((person) => !person.removed && !layer.userIds.includes(person.id));
  return (
    <fieldset class="layer card" data-testid="layer">
      <legend>{title}</legend>
      {index > 0 ? <p class="hint">Covers the layers before it wherever it has someone on call.</p> : null}
      {own.length > 0 ? <span class="field-error">{own.map((error) => error.message).join('; ')}</span> : null}
      <ol class="rotation-pool" aria-label={`${title} rotation, in turn order`}>
        {layer.userIds.map((userId, u) => {
          const name = nameOf(people, userId);
          return (
            <li key={userId}>
              <span class="pool-name">{name}</span>
              <span class="pool-actions">
                <button
                  type="button"
                  class="button plain"
                  disabled={u === 0}
                  aria-label={`Move ${name} up in ${title.toLowerCase()}`}
                  onClick={() => onChange({ ...layer, userIds: moved(layer.userIds, u, -1) })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="button plain"
                  disabled={u === layer.userIds.length - 1}
                  aria-label={`Move ${name} down in ${title.toLowerCase()}`}
                  onClick={() => onChange({ ...layer, userIds: moved(layer.userIds, u, 1) })}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="button plain"
                  aria-label={`Remove ${name} from ${title.toLowerCase()}`}
                  onClick={() => onChange({ ...layer, userIds: layer.userIds.filter((id) => id !== userId) })}
                >
                  Remove
                </button>
              </span>
              <FieldError errors={errors} path={`${pool}/${u}`} />
            </li>
          );
        })}
      </ol>
      <PagingField
        label={`${title}: add a person`}
        path={pool}
        errors={poolErrors}
        hint="turns go down the list and start over"
        control={(props) => (
          <select
            {...props}
            value=""
            onChange={(e) =>
              e.currentTarget.value && onChange({ ...layer, userIds: [...layer.userIds, e.currentTarget.value] })
            }
          >
            <option value="">{choosable.length > 0 ? 'Choose a person…' : 'Everyone is in this layer'}</option>
            {choosable.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
        )}
      />
      <div class="field-row">
        <PagingField
          label={`${title}: hands over`}
          path={`${at}/rotation_type`}
          errors={errors}
          control={(props) => (
            <select
              {...props}
              value={layer.rotation}
              onChange={(e) => onChange({ ...layer, rotation: e.currentTarget.value as LayerForm['rotation'] })}
            >
              <option value="daily">daily</option>
              <option value="weekly">weekly</option>
            </select>
          )}
        />
        <PagingField
          label={`${title}: first turn starts`}
          hint={`wall clock in ${timezone}; later handoffs at the same time of day`}
          path={`${at}/start_time`}
          errors={errors}
          control={(props) => (
            <input
              type="datetime-local"
              {...props}
              value={layer.start}
              onInput={(e) => onChange({ ...layer, start: e.currentTarget.value })}
            />
          )}
        />
      </div>
      <div class="form-actions">
        <button type="button" class="button plain" disabled={index === 0} onClick={() => onMove(-1)}>
          Move {title.toLowerCase()} earlier
        </button>
        <button type="button" class="button plain" disabled={index === count - 1} onClick={() => onMove(1)}>
          Move {title.toLowerCase()} later
        </button>
        <button type="button" class="button danger" disabled={count === 1} onClick={onRemove}>
          Remove {title.toLowerCase()}
        </button>
      </div>
    </fieldset>
  );
}
