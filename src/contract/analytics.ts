/**
 * The analytics answers (queries/analytics.ts): incident figures per group and the noisiest rules,
 * and on-call health per person. Written once here: the routes' answers are typed from them,
 * src/openapi/analytics.ts documents them, the console imports their types.
 */
import { z } from 'zod';
import { instant, resourceId } from './answer-pieces.js';
import { RESOLUTION_REASONS, type ResolutionReason } from './vocabulary.js';

const seconds = z.number().nullable().meta({ description: 'seconds; null when no incident of the group has one' });
/** Incidents resolved for each reason (Object.fromEntries loses the keys' type: the cast restores it). */
const countPerReason = Object.fromEntries(RESOLUTION_REASONS.map((r) => [r, z.number().int()])) as Record<
  ResolutionReason,
  z.ZodNumber
>;

export const incidentGroupSchema = z.object({
  key: z.string().nullable().meta({
    description: 'the rule, policy or cluster id, the severity, or the local date (week: its Monday); null: no cluster',
  }),
  label: z.string().nullable().meta({ description: "the rule's name when grouped by rule" }),
  opened: z.number().int(),
  acknowledged: z.number().int(),
  resolved: z.object({ ...countPerReason, total: z.number().int() }),
  mtta_seconds: seconds,
  p90_tta_seconds: seconds,
  mttr_seconds: seconds,
  p90_ttr_seconds: seconds,
  escalated_to_stage_2: z.number().int(),
  pages: z.record(z.string(), z.number().int()).meta({ description: 'stage pages delivered, per medium' }),
  failed_pages: z.number().int(),
});

export const incidentAnalyticsSchema = z.object({
  since: instant,
  until: instant,
  group_by: z.string(),
  tz: z.string(),
  groups: z.array(incidentGroupSchema),
  noisiest: z.array(
    z.object({
      rule_id: resourceId,
      rule_name: z.string(),
      incidents: z.number().int(),
      incidents_per_week: z.number(),
      flapping: z.number().int().meta({ description: 'auto-resolved within 5 minutes' }),
      flapping_share: z.number(),
    }),
  ),
});

export const onCallAnalyticsSchema = z.object({
  since: instant,
  until: instant,
  people: z.array(
    z.object({
      user_id: resourceId,
      name: z.string().nullable(),
      email: z.string().nullable().optional().meta({
        description:
          "only for a caller who also holds iam:read (as GET /users); absent otherwise, and so is the CSV's email column",
      }),
      pages_received: z.number().int(),
      pages_at_night: z.number().int().meta({ description: 'between 22:00 and 07:00 in the zone used' }),
      zones_used: z.array(z.object({ zone: z.string(), source: z.enum(['schedule', 'utc']) })),
      hours_on_call: z.number(),
    }),
  ),
});

export type IncidentAnalyticsGroup = z.infer<typeof incidentGroupSchema>;
export type IncidentAnalytics = z.infer<typeof incidentAnalyticsSchema>;
export type OncallHealth = z.infer<typeof onCallAnalyticsSchema>;
