/**
 * Creates or edits an on-call schedule: name, zone (IANA, picked from the browser's list; a new
 * schedule starts in the browser's zone), its ordered layers (LayerEditor) and overrides
 * (OverrideEditor), with the rendered next 14 days previewed as the form changes (SchedulePreview).
 * Saving sends the whole schedule (PUT replaces layers and overrides) with the ETag the editor was
 * opened with as If-Match: an override someone added meanwhile (POST /schedules/{id}/overrides) is
 * never dropped unseen; the 409 says so and offers their version. The API's validation errors show
 * beside the fields they name, and any it names elsewhere above the form.
 */
import { useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { ScheduleDetail, UserName } from '../api/types';
import { errorsOf, FormProblem } from './FieldError';
import { LayerEditor } from './LayerEditor';
import { OverrideEditor } from './OverrideEditor';
import { PagingField, PagingTextField } from './PagingTextField';
import {
  draftOf,
  emptyLayer,
  emptyOverride,
  knownZones,
  moved,
  scheduleForm,
  type LayerForm,
  type OverrideForm,
  type ScheduleForm,
} from './schedule-form';
import { SchedulePreview } from './SchedulePreview';
import { useSession } from './session-context';

const CLAIMED = /^\/(name|timezone|layers\/\d+|overrides\/\d+)(\/|$)/;
/** The API's limits (commands/schedules.ts). */
const MAX_LAYERS = 10;
const MAX_OVERRIDES = 500;

interface Props {
  /** The schedule to edit and the ETag its GET answered; none for a new one. */
  editing?: { schedule: ScheduleDetail; etag: string | null };
  people: UserName[];
  onSaved: (saved: ScheduleDetail) => void;
  onCancel: () => void;
  /** Opens the schedule as it is now (after a 409), dropping this form's changes. */
  onReload: () => void;
}

export function ScheduleEditor({ editing, people, onSaved, onCancel, onReload }: Props) {
  const schedule = editing?.schedule;
  const { calls } = useSession();
  const [form, setForm] = useState<ScheduleForm>(() => scheduleForm(schedule));
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const zones = useMemo(knownZones, []);
  const errors = errorsOf(failure);
  const set = (change: Partial<ScheduleForm>) => setForm((current) => ({ ...current, ...change }));
  const setLayer = (changed: LayerForm) =>
    set({ layers: form.layers.map((layer) => (layer.key === changed.key ? changed : layer)) });
  const setOverride = (changed: OverrideForm) =>
    set({ overrides: form.overrides.map((o) => (o.key === changed.key ? changed : o)) });
  const draft = draftOf(form);
  // Errors about the lists themselves (no layer at all, too many overrides) show above them.
  const listError = (path: string) =>
    errors
      .filter((error) => error.path === path)
      .map((error) => error.message)
      .join('; ');

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    setConflict(false);
    try {
      onSaved(
        editing
          ? (await calls.updateSchedule(editing.schedule.id, draft, editing.etag)).data
          : await calls.createSchedule(draft),
      );
    } catch (error) {
      const stale = error instanceof ApiError && error.status === 409;
      setConflict(stale);
      setFailure(
        stale
          ? new Error(
              'Someone changed this schedule after you opened it (an override added, perhaps), so your edit was not saved (HTTP 409). Load their version, then make your change again.',
            )
          : (error as Error),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      class="editor card"
      onSubmit={(e) => void save(e)}
      noValidate
      aria-label={schedule ? `Edit schedule ${schedule.name}` : 'New schedule'}
    >
      <h2>{schedule ? `Edit ${schedule.name}` : 'New on-call schedule'}</h2>
      <FormProblem
        failure={failure}
        claimed={(path) => CLAIMED.test(path) || path === '/layers' || path === '/overrides'}
      />
      {conflict ? (
        <div class="form-actions">
          <button type="button" class="button plain" onClick={onReload}>
            Load their version
          </button>
        </div>
      ) : null}
      <PagingTextField label="Name" path="/name" value={form.name} onInput={(name) => set({ name })} errors={errors} />
      <PagingField
        label="Time zone"
        hint="IANA name; rotation and override times are wall clocks in this zone"
        path="/timezone"
        errors={errors}
        control={(props) => (
          <>
            <input
              {...props}
              list="schedule-zones"
              autocomplete="off"
              spellcheck={false}
              value={form.timezone}
              onInput={(e) => set({ timezone: e.currentTarget.value })}
            />
            <datalist id="schedule-zones">
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </>
        )}
      />
      <h3>Layers</h3>
      {listError('/layers') ? (
        <span class="field-error" data-path="/layers">
          {listError('/layers')}
        </span>
      ) : null}
      {form.layers.map((layer, index) => (
        <LayerEditor
          key={layer.key}
          layer={layer}
          index={index}
          count={form.layers.length}
          errors={errors}
          people={people}
          timezone={form.timezone}
          onChange={setLayer}
          onMove={(by) => set({ layers: moved(form.layers, index, by) })}
          onRemove={() => set({ layers: form.layers.filter((other) => other.key !== layer.key) })}
        />
      ))}
      <div class="form-actions">
        <button
          type="button"
          class="button plain"
          disabled={form.layers.length >= MAX_LAYERS}
          onClick={() => set({ layers: [...form.layers, emptyLayer(form.timezone)] })}
        >
          Add layer
        </button>
      </div>
      <h3>Overrides</h3>
      {listError('/overrides') ? (
        <span class="field-error" data-path="/overrides">
          {listError('/overrides')}
        </span>
      ) : null}
      {form.overrides.length === 0 ? (
        <p class="hint">
          None: the layers decide. An override puts someone on call for a while, whatever the layers say.
        </p>
      ) : null}
      {form.overrides.map((override, index) => (
        <OverrideEditor
          key={override.key}
          override={override}
          index={index}
          errors={errors}
          people={people}
          timezone={form.timezone}
          onChange={setOverride}
          onRemove={() => set({ overrides: form.overrides.filter((other) => other.key !== override.key) })}
        />
      ))}
      <div class="form-actions">
        <button
          type="button"
          class="button plain"
          disabled={form.overrides.length >= MAX_OVERRIDES}
          onClick={() => set({ overrides: [...form.overrides, emptyOverride(form.timezone)] })}
        >
          Add override
        </button>
      </div>
      <SchedulePreview draft={draft} />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={saving}>
          {schedule ? 'Save schedule' : 'Create schedule'}
        </button>
        <button type="button" class="button plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
