/**
 * The maintenance window answer. Written once here: queries/maintenance-windows.ts and the command
 * routes are typed from it, src/openapi/maintenance-windows.ts documents it, the console imports its type.
 */
import { z } from 'zod';
import { instant, resourceId } from './answer-pieces.js';
import { SEVERITIES, WEEKDAYS } from './vocabulary.js';

export const maintenanceWindowSchema = z.object({
  id: resourceId,
  tenant_id: resourceId,
  name: z.string(),
  reason: z.string(),
  matcher: z
    .object({
      all_rules: z.boolean(),
      rule_ids: z.array(resourceId),
      cluster_ids: z.array(z.string()),
      severities: z.array(z.enum(SEVERITIES)),
    })
    .meta({ description: 'every rule (`all_rules`), or the rules matching every list given' }),
  starts_at: instant.nullable().meta({ description: "a one-off window's start (null for a weekly one)" }),
  ends_at: instant.nullable(),
  recurrence: z
    .object({
      days: z.array(z.enum(WEEKDAYS)),
      start_time: z.string(),
      duration_minutes: z.number().int(),
      time_zone: z.string(),
    })
    .nullable(),
  active: z.boolean().meta({ description: 'active now (with `active_at`: at that instant)' }),
  current_occurrence: z.object({ starts_at: instant, ends_at: instant }).nullable(),
  next_change_at: instant.nullable().meta({ description: 'when it next turns active or inactive (null: never again)' }),
  ended_at: instant.nullable().meta({ description: 'ended early (`POST …/end`) at this instant' }),
  ended_by: z.string().nullable(),
  created_at: instant,
  created_by: z.string(),
  updated_at: instant,
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;
export type WindowMatcher = MaintenanceWindow['matcher'];
export type WindowRecurrence = NonNullable<MaintenanceWindow['recurrence']>;
