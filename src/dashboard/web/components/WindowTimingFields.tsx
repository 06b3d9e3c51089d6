/**
 * When a maintenance window applies: one interval (wall clocks in the browser's zone) or a weekly
 * recurrence (days, a local start time, a duration, an IANA zone picked from the browser's list and
 * defaulting to the browser's zone). The API's errors show beside the field they name (the 30-day
 * limit beside the end).
 */
import { useMemo } from 'preact/hooks';
import type { FieldProblem } from '../api/client';
import type { Weekday } from '../api/types';
import { FieldError, invalidProps } from './FieldError';
import { toggled, type WindowForm } from './maintenance-form';
import { knownZones } from './schedule-form';

const DAYS: [Weekday, string][] = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

interface Props {
  form: WindowForm;
  errors: FieldProblem[];
  set: (change: Partial<WindowForm>) => void;
}

export function WindowTimingFields({ form, errors, set }: Props) {
  const zones = useMemo(knownZones, []);
  const text = (field: keyof WindowForm) => (e: Event) => set({ [field]: (e.currentTarget as HTMLInputElement).value });
  return (
    <fieldset class="window-timing">
      <legend>When</legend>
      <div class="window-kinds" role="radiogroup" aria-label="Timing">
        <label class="check">
          <input type="radio" name="timing" checked={form.timing === 'once'} onChange={() => set({ timing: 'once' })} />
          Once
        </label>
        <label class="check">
          <input
            type="radio"
            name="timing"
            checked={form.timing === 'weekly'}
            onChange={() => set({ timing: 'weekly' })}
          />
          Every week
        </label>
      </div>
      <FieldError errors={errors.filter((e) => e.path === '/recurrence')} path="/recurrence" />
      {form.timing === 'once' ? (
        <div class="field-row">
          <div class="field">
            <label for="window-starts">Starts (your time)</label>
            <input
              id="window-starts"
              type="datetime-local"
              value={form.startsAt}
              onInput={text('startsAt')}
              {...invalidProps(errors, '/starts_at')}
            />
            <FieldError errors={errors} path="/starts_at" />
          </div>
          <div class="field">
            <label for="window-ends">Ends (your time)</label>
            <input
              id="window-ends"
              type="datetime-local"
              value={form.endsAt}
              onInput={text('endsAt')}
              {...invalidProps(errors, '/ends_at')}
            />
            <FieldError errors={errors} path="/ends_at" />
          </div>
        </div>
      ) : (
        <>
          <fieldset class="window-checks" {...invalidProps(errors, '/recurrence/days')}>
            <legend>Days</legend>
            {DAYS.map(([day, label]) => (
              <label key={day} class="check">
                <input
                  type="checkbox"
                  checked={form.days.includes(day)}
                  onChange={(e) => set({ days: toggled(form.days, day, e.currentTarget.checked) })}
                />
                {label}
              </label>
            ))}
            <FieldError errors={errors} path="/recurrence/days" />
          </fieldset>
          <div class="field-row">
            <div class="field">
              <label for="window-start-time">Local start time</label>
              <input
                id="window-start-time"
                type="time"
                value={form.startTime}
                onInput={text('startTime')}
                {...invalidProps(errors, '/recurrence/start_time')}
              />
              <FieldError errors={errors} path="/recurrence/start_time" />
            </div>
            <div class="field">
              <label for="window-duration">Duration (minutes)</label>
              <input
                id="window-duration"
                inputMode="numeric"
                value={form.durationMinutes}
                onInput={text('durationMinutes')}
                {...invalidProps(errors, '/recurrence/duration_minutes')}
              />
              <FieldError errors={errors} path="/recurrence/duration_minutes" />
            </div>
            <div class="field">
              <label for="window-zone">Time zone</label>
              <input
                id="window-zone"
                list="window-zones"
                autocomplete="off"
                spellcheck={false}
                value={form.timeZone}
                onInput={text('timeZone')}
                {...invalidProps(errors, '/recurrence/time_zone')}
              />
              <datalist id="window-zones">
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
              <FieldError errors={errors} path="/recurrence/time_zone" />
            </div>
          </div>
        </>
      )}
    </fieldset>
  );
}
