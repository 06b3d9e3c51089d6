/**
 * On-call schedules: the command schemas (SPEC.md, On-call schedule) and the decider. Which users
 * exist in the tenant is checked by the routes before the decider; everything that can be judged
 * from the body alone is judged here, every offending path listed. The model is
 * src/events/schedule.ts; the routes are commands/schedule-routes.ts.
 */
import { z } from 'zod';
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
import { nonEmptyBody } from '../src/http/non-empty-body.js';
import { isValidTimeZone } from '../src/oncall/zone-offsets.js';
import { parseScheduleTime } from '../src/oncall/zoned-iso.js';

export const MAX_LAYERS = 10;
export const MAX_USERS_PER_LAYER = 100;
export const MAX_OVERRIDES = 500;

/** An ISO 8601 date-time; without an offset it is read in the schedule's zone (checked against it below). */
const dateTime = z.string().trim().min(1).max(40);

const layerSchema = z.strictObject({
  user_ids: z
    .array(z.uuid('must be a user id (UUID)').transform((id) => id.toLowerCase()))
    .min(1, 'a layer needs at least one user')
    .max(MAX_USERS_PER_LAYER),
  rotation_type: z.enum(['daily', 'weekly']),
  start_time: dateTime,
});

export const overrideBodySchema = z.strictObject({
  user_id: z.uuid('must be a user id (UUID)').transform((id) => id.toLowerCase()),
  start: dateTime,
  end: dateTime,
  reason: z.string().trim().max(500).nullable().optional(),
});

const scheduleBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  timezone: z.string().refine(isValidTimeZone, 'must be an IANA time zone name, e.g. Europe/Berlin'),
  layers: z.array(layerSchema).min(1, 'a schedule needs at least one layer').max(MAX_LAYERS),
  overrides: z.array(overrideBodySchema).max(MAX_OVERRIDES).optional(),
});

/**
 * Times are checked once the zone is known: every start_time parses, every override ends after it
 * starts. One rule for a whole body (POST) and for a schedule after a partial PUT (the decider).
 */
export function checkScheduleTimes(
  timeZone: string,
  layerStarts: readonly string[],
  overrides: readonly Pick<OverrideBody, 'start' | 'end'>[],
  report: (path: (string | number)[], message: string) => void,
): void {
  layerStarts.forEach((start, index) => {
    if (!parses(start, timeZone)) report(['layers', index, 'start_time'], 'must be an ISO 8601 date-time');
  });
  overrides.forEach((override, index) =>
    checkOverrideTimes(override, timeZone, (field, message) => report(['overrides', index, field], message)),
  );
}

export const scheduleBodySchema = scheduleBody.superRefine((body, ctx) => {
  if (!isValidTimeZone(body.timezone)) return;
  checkScheduleTimes(
    body.timezone,
    body.layers.map((layer) => layer.start_time),
    body.overrides ?? [],
    (path, message) => ctx.addIssue({ code: 'custom', path, message }),
  );
});

/**
 * PUT (SPEC.md: "Updates layers, timezone or overrides"): any non-empty subset of the fields, each
 * valid on its own; the decider checks the times of the merged schedule in its (new) zone.
 */
export const scheduleChangeBodySchema = nonEmptyBody(scheduleBody.partial());

export type ScheduleBody = z.infer<typeof scheduleBodySchema>;
export type ScheduleChangeBody = z.infer<typeof scheduleChangeBodySchema>;
export type OverrideBody = z.infer<typeof overrideBodySchema>;

function parses(text: string, timeZone: string): boolean {
  try {
    parseScheduleTime(text, timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Reports bad override times through `report(field, message)`. */
export function checkOverrideTimes(
  override: Pick<OverrideBody, 'start' | 'end'>,
  timeZone: string,
  report: (field: 'start' | 'end', message: string) => void,
): void {
  const startOk = parses(override.start, timeZone);
  const endOk = parses(override.end, timeZone);
  if (!startOk) report('start', 'must be an ISO 8601 date-time');
  if (!endOk) report('end', 'must be an ISO 8601 date-time');
  if (startOk && endOk && parseScheduleTime(override.end, timeZone) <= parseScheduleTime(override.start, timeZone))
    report('end', 'must be after start');
}

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
