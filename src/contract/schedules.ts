/**
 * The on-call schedule answers: the schedule, who is on call now, the rendered range, and the
 * preview of an unsaved schedule. Written once here: queries/schedules.ts and the command routes are
 * typed from them, src/openapi/schedules.ts documents them, the console imports their types.
 */
import { z } from 'zod';
import { instant, optionalText, resourceId } from './answer-pieces.js';
import { ON_CALL_SOURCES, ROTATION_TYPES } from './vocabulary.js';

export const scheduleSchema = z.object({
  id: resourceId,
  name: z.string(),
  timezone: z.string(),
  layers: z.array(
    z.object({ user_ids: z.array(resourceId), rotation_type: z.enum(ROTATION_TYPES), start_time: z.string() }),
  ),
  overrides: z.array(
    z.object({ id: resourceId, user_id: resourceId, start: z.string(), end: z.string(), reason: optionalText }),
  ),
  created_at: instant,
  updated_at: instant,
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** Who is on call, and from where: a layer (its index) or an override. */
const onCallSource = {
  source: z.enum(ON_CALL_SOURCES),
  layer: z.number().int().optional(),
  override_id: resourceId.optional(),
};

export const currentOnCallSchema = z.object({
  schedule_id: resourceId,
  at: instant.meta({ description: "in the schedule's zone" }),
  current_oncall: z
    .object({
      user_id: resourceId,
      name: z.string(),
      email: z.string(),
      on_call_since: instant,
      on_call_until: instant.nullable(),
      ...onCallSource,
    })
    .nullable(),
});
export type CurrentOncall = z.infer<typeof currentOnCallSchema>;

export const onCallRangeSchema = z.object({
  schedule_id: resourceId,
  since: instant,
  until: instant,
  segments: z.array(
    z.object({
      user_id: resourceId,
      name: z.string(),
      email: z.string(),
      start: instant,
      end: instant,
      ...onCallSource,
    }),
  ),
});
export type OncallRange = z.infer<typeof onCallRangeSchema>;
export type OncallSegment = OncallRange['segments'][number];

/** The range answer of an unsaved schedule: an override is named by its index in the body (it has no id yet). */
export const schedulePreviewSchema = z.object({
  since: instant,
  until: instant,
  segments: z.array(
    z.object({
      user_id: resourceId,
      name: z.string(),
      email: z.string(),
      start: instant,
      end: instant,
      source: z.enum(ON_CALL_SOURCES),
      layer: z.number().int().optional(),
      override: z.number().int().optional().meta({ description: "the override's index in the body" }),
    }),
  ),
});
export type SchedulePreview = z.infer<typeof schedulePreviewSchema>;
