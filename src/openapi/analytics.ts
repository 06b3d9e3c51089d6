/** Incident analytics and on-call health (queries/analytics.ts). */
import { z } from 'zod';
import { incidentAnalyticsQuery, onCallAnalyticsQuery } from '../../queries/analytics.js';
import { RESOLUTION_REASONS } from '../events/incident.js';
import { HEAVY_REQUESTS_429, type OperationDoc } from './operation.js';
import { instant, resourceId } from './shared-schemas.js';

const tag = 'Analytics';
const seconds = z.number().nullable().meta({ description: 'seconds; null when no incident of the group has one' });
const csvNote = 'With `Accept: text/csv`, the rows as CSV (RFC 4180, a header row, the same numbers).';

const incidentGroupSchema = z.object({
  key: z.string().nullable().meta({
    description: 'the rule, policy or cluster id, the severity, or the local date (week: its Monday); null: no cluster',
  }),
  label: z.string().nullable().meta({ description: "the rule's name when grouped by rule" }),
  opened: z.number().int(),
  acknowledged: z.number().int(),
  resolved: z.object({
    ...Object.fromEntries(RESOLUTION_REASONS.map((r) => [r, z.number().int()])),
    total: z.number().int(),
  }),
  mtta_seconds: seconds,
  p90_tta_seconds: seconds,
  mttr_seconds: seconds,
  p90_ttr_seconds: seconds,
  escalated_to_stage_2: z.number().int(),
  pages: z.record(z.string(), z.number().int()).meta({ description: 'stage pages delivered, per medium' }),
  failed_pages: z.number().int(),
});

const incidentAnalyticsSchema = z.object({
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

const onCallAnalyticsSchema = z.object({
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

export const analyticsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/analytics/incidents',
    tag,
    summary: 'Incident analytics over a range, grouped',
    description: `Incidents opened in [since, until) (default: the last 30 days; at most 366), grouped; and the noisiest rules. ${csvNote}`,
    query: incidentAnalyticsQuery.shape,
    problems: { 429: HEAVY_REQUESTS_429 },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The groups and the noisiest rules',
      data: incidentAnalyticsSchema,
    },
  },
  {
    method: 'get',
    path: '/analytics/oncall',
    tag,
    summary: 'On-call health per person over a range',
    description: `Pages received, pages at night in the person's zone and hours on call (default: the last 30 days; at most 366). People are named; their email is given only to a caller who also holds \`iam:read\`. ${csvNote}`,
    query: onCallAnalyticsQuery.shape,
    problems: { 429: HEAVY_REQUESTS_429 },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'One row per person paged or on call',
      data: onCallAnalyticsSchema,
    },
  },
];
