/**
 * What clients send to the on-call schedule routes (SPEC.md, On-call schedule): a schedule (POST,
 * preview), a change of it (PUT), an override. Everything that can be judged from the body alone is
 * judged here, every offending path listed; which users exist is checked by the routes
 * (commands/schedule-routes.ts), the times of a schedule after a partial PUT by the decider
 * (commands/schedules.ts), both with the time checks below.
 */
import { z } from 'zod';
import { isValidTimeZone } from '../../oncall/zone-offsets.js';
import { parseScheduleTime } from '../../oncall/zoned-iso.js';
import { nonEmptyBody } from './non-empty-body.js';

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
