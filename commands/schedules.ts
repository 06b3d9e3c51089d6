/**
 * On-call schedules: the command schemas (SPEC.md, On-call schedule) and the decider. Which users
 * exist in the tenant is checked by the routes before the decider; everything that can be judged
 * from the body alone is judged here, every offending path listed. The model is
 * src/events/schedule.ts; the routes are commands/schedule-routes.ts.
 */
import { z } from 'zod';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveSchedule, initialScheduleState, type ScheduleData, type ScheduleEvent, type ScheduleLayer, type ScheduleOverride, type ScheduleState,
} from '../src/events/schedule.js';
import { isValidTimeZone } from '../src/oncall/zone-offsets.js';
import { parseScheduleTime } from '../src/oncall/zoned-iso.js';

export const MAX_LAYERS = 10;
export const MAX_USERS_PER_LAYER = 100;
export const MAX_OVERRIDES = 500;

/** An ISO 8601 date-time; without an offset it is read in the schedule's zone (checked against it below). */
const dateTime = z.string().trim().min(1).max(40);

const layerSchema = z.strictObject({
  user_ids: z.array(z.uuid('must be a user id (UUID)').transform((id) => id.toLowerCase())).min(1, 'a layer needs at least one user').max(MAX_USERS_PER_LAYER),
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

/** Times are checked once the zone is known: every start_time parses, every override ends after it starts. */
export const scheduleBodySchema = scheduleBody.superRefine((body, ctx) => {
  if (!isValidTimeZone(body.timezone)) return;
  body.layers.forEach((layer, index) => {
    if (!parses(layer.start_time, body.timezone)) ctx.addIssue({ code: 'custom', path: ['layers', index, 'start_time'], message: 'must be an ISO 8601 date-time' });
  });
  body.overrides?.forEach((override, index) => checkOverrideTimes(override, body.timezone, (path, message) => ctx.addIssue({ code: 'custom', path: ['overrides', index, path], message })));
});

export type ScheduleBody = z.infer<typeof scheduleBodySchema>;
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
export function checkOverrideTimes(override: OverrideBody, timeZone: string, report: (field: 'start' | 'end', message: string) => void): void {
  const startOk = parses(override.start, timeZone);
  const endOk = parses(override.end, timeZone);
  if (!startOk) report('start', 'must be an ISO 8601 date-time');
  if (!endOk) report('end', 'must be an ISO 8601 date-time');
  if (startOk && endOk && parseScheduleTime(override.end, timeZone) <= parseScheduleTime(override.start, timeZone)) report('end', 'must be after start');
}

export const toLayer = (layer: ScheduleBody['layers'][number]): ScheduleLayer => ({
  userIds: layer.user_ids, rotationType: layer.rotation_type, startTime: layer.start_time,
});

export const toOverride = (overrideId: string, body: OverrideBody): ScheduleOverride => ({
  overrideId, userId: body.user_id, start: body.start, end: body.end, reason: body.reason ?? null,
});

export type ScheduleCommand =
  | { kind: 'CreateSchedule'; schedule: ScheduleData }
  /** `overrides` absent: the schedule keeps the ones it has (they have their own routes). */
  | { kind: 'ReplaceSchedule'; schedule: Omit<ScheduleData, 'overrides'> & { overrides?: ScheduleOverride[] } }
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
      case 'ReplaceSchedule':
        return [{ type: 'ScheduleReplaced', data: { ...command.schedule, overrides: command.schedule.overrides ?? current.overrides } }];
      case 'DeleteSchedule':
        return [{ type: 'ScheduleDeleted', data: { scheduleId: command.scheduleId } }];
      case 'AddOverride':
        if (current.overrides.length >= MAX_OVERRIDES) throw rejectConflict(`a schedule holds at most ${MAX_OVERRIDES} overrides; remove old ones first`);
        return [{ type: 'ScheduleOverrideAdded', data: { scheduleId: command.scheduleId, override: command.override } }];
      case 'RemoveOverride':
        if (!current.overrides.some((o) => o.overrideId === command.overrideId)) throw rejectNotFound('override');
        return [{ type: 'ScheduleOverrideRemoved', data: { scheduleId: command.scheduleId, overrideId: command.overrideId } }];
    }
  },
};
