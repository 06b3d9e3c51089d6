/**
 * On-call schedules: the decider, and a body's fields in event terms. What clients send (SPEC.md,
 * On-call schedule) and everything that can be judged from the body alone is
 * src/contract/bodies/schedules.ts; which users exist in the tenant is checked by the routes before
 * the decider; the times of a schedule after a partial PUT, here. The model is
 * src/events/schedule.ts; the routes are commands/schedule-routes.ts.
 */
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectInvalid, rejectNotFound, type FieldError } from '../src/commanding/domain-rejection.js';
import {
  evolveSchedule,
  initialScheduleState,
  type ScheduleData,
  type ScheduleEvent,
  type ScheduleLayer,
  type ScheduleOverride,
  type ScheduleState,
} from '../src/events/schedule.js';
import {
  checkScheduleTimes,
  MAX_OVERRIDES,
  type OverrideBody,
  type ScheduleBody,
  type ScheduleChangeBody,
} from '../src/contract/bodies/schedules.js';

export const toLayer = (layer: ScheduleBody['layers'][number]): ScheduleLayer => ({
  userIds: layer.user_ids,
  rotationType: layer.rotation_type,
  startTime: layer.start_time,
});

export const toOverride = (overrideId: string, body: OverrideBody): ScheduleOverride => ({
  overrideId,
  userId: body.user_id,
  start: body.start,
  end: body.end,
  reason: body.reason ?? null,
});

/** The schedule fields a body sets (only the ones present); overrides get fresh ids, in the order given. */
export function scheduleFieldsFrom(body: ScheduleChangeBody, newId: () => string): ScheduleChanges {
  const fields: ScheduleChanges = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.timezone !== undefined) fields.timezone = body.timezone;
  if (body.layers !== undefined) fields.layers = body.layers.map(toLayer);
  if (body.overrides !== undefined) fields.overrides = body.overrides.map((override) => toOverride(newId(), override));
  return fields;
}

export type ScheduleChanges = Partial<Omit<ScheduleData, 'scheduleId'>>;

/** The merged schedule's times, read in its zone (kept times may not hold in a new one, e.g. an offset-less end now before its start). */
function timeErrors(schedule: ScheduleData): FieldError[] {
  const errors: FieldError[] = [];
  checkScheduleTimes(
    schedule.timezone,
    schedule.layers.map((layer) => layer.startTime),
    schedule.overrides,
    (path, message) => errors.push({ path: `/${path.join('/')}`, message }),
  );
  return errors;
}

export type ScheduleCommand =
  | { kind: 'CreateSchedule'; schedule: ScheduleData }
  /** The fields given replace the schedule's; the others (overrides too: they have their own routes) are kept. */
  | { kind: 'UpdateSchedule'; scheduleId: string; changes: ScheduleChanges }
  | { kind: 'DeleteSchedule'; scheduleId: string }
  | { kind: 'AddOverride'; scheduleId: string; override: ScheduleOverride }
  | { kind: 'RemoveOverride'; scheduleId: string; overrideId: string };

export const scheduleDecider: Decider<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  initialState: initialScheduleState,
  evolve: evolveSchedule,
  decide: (command, state) => {
    if (command.kind === 'CreateSchedule') {
      if (state.status !== 'absent') throw rejectConflict('a schedule with this id already exists');
      return [{ type: 'ScheduleCreated', data: command.schedule }];
    }
    if (state.status !== 'active') throw rejectNotFound('schedule');
    const current = state.schedule!;
    switch (command.kind) {
      case 'UpdateSchedule': {
        const schedule = { ...current, ...command.changes, scheduleId: current.scheduleId };
        const errors = timeErrors(schedule);
        if (errors.length > 0)
          throw rejectInvalid(`the schedule's times do not read in the time zone ${schedule.timezone}`, errors);
        return [{ type: 'ScheduleReplaced', data: schedule }];
      }
      case 'DeleteSchedule':
        return [{ type: 'ScheduleDeleted', data: { scheduleId: command.scheduleId } }];
      case 'AddOverride':
        if (current.overrides.length >= MAX_OVERRIDES)
          throw rejectConflict(`a schedule holds at most ${MAX_OVERRIDES} overrides; remove old ones first`);
        return [
          { type: 'ScheduleOverrideAdded', data: { scheduleId: command.scheduleId, override: command.override } },
        ];
      case 'RemoveOverride':
        if (!current.overrides.some((o) => o.overrideId === command.overrideId)) throw rejectNotFound('override');
        return [
          { type: 'ScheduleOverrideRemoved', data: { scheduleId: command.scheduleId, overrideId: command.overrideId } },
        ];
    }
  },
};
