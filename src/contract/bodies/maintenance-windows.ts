/**
 * What clients send to POST and PUT /maintenance-windows (commands/maintenance-window-routes.ts
 * parses with it; the console's calls are typed from it). The shape checks that need no I/O live
 * here, each with the field it is about: either one interval (`starts_at`, `ends_at`) or a
 * `recurrence`, never both; an interval that ends before it starts, or lasts longer than 30 days, is
 * refused, and so is a recurrence whose occurrences would touch or overlap (each must end before
 * the next begins: a window that never turns off would silence its rules for good).
 */
import { z } from 'zod';
import { isValidTimeZone } from '../../oncall/zone-offsets.js';
import { apiInstant } from '../api-instant.js';
import { SEVERITIES, WEEKDAYS } from '../vocabulary.js';
import { shortestStartGapDays } from '../weekly-recurrence.js';

const DAY_MS = 86_400_000;
/** SPEC (issue 30): a window longer than this is refused. */
export const MAX_WINDOW_MS = 30 * DAY_MS;
/** A weekly window's occurrence lasts at most a week. */
export const MAX_WEEKLY_DURATION_MINUTES = 7 * 24 * 60;

const matcherBodySchema = z
  .strictObject({
    /** true: every rule of the tenant (then no list may be given). */
    all_rules: z.boolean().default(false),
    rule_ids: z.array(z.uuid()).max(500).default([]),
    cluster_ids: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
    severities: z.array(z.enum(SEVERITIES)).default([]),
  })
  .superRefine((matcher, ctx) => {
    const lists = matcher.rule_ids.length + matcher.cluster_ids.length + matcher.severities.length;
    if (matcher.all_rules && lists > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['all_rules'],
        message: 'all_rules matches every rule: give no rule_ids, cluster_ids or severities with it',
      });
    // An empty matcher silencing everything by accident would be the worst way to miss a page.
    if (!matcher.all_rules && lists === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['all_rules'],
        message: 'say which rules: rule_ids, cluster_ids, severities, or all_rules: true',
      });
  });

const recurrenceBodySchema = z
  .strictObject({
    days: z
      .array(z.enum(WEEKDAYS))
      .min(1)
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'each day once'),
    start_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a local time HH:MM'),
    duration_minutes: z.number().int().min(1).max(MAX_WEEKLY_DURATION_MINUTES),
    time_zone: z.string().refine(isValidTimeZone, 'not an IANA time zone'),
  })
  .superRefine((recurrence, ctx) => {
    // Each occurrence must end before the next begins, or the window never turns off (issue 36).
    const gapMinutes = shortestStartGapDays(recurrence.days) * 24 * 60;
    if (recurrence.duration_minutes >= gapMinutes) {
      ctx.addIssue({
        code: 'custom',
        path: ['duration_minutes'],
        message: `must be shorter than the ${gapMinutes} minutes between the closest two start days, so that each occurrence ends before the next begins (at most ${gapMinutes - 1})`,
      });
    }
  });

export const maintenanceWindowBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    reason: z.string().trim().min(1).max(2000),
    matcher: matcherBodySchema,
    starts_at: apiInstant.optional(),
    ends_at: apiInstant.optional(),
    recurrence: recurrenceBodySchema.optional(),
  })
  .superRefine((body, ctx) => {
    const interval = body.starts_at !== undefined || body.ends_at !== undefined;
    if (interval && body.recurrence) {
      ctx.addIssue({
        code: 'custom',
        path: ['recurrence'],
        message: 'give either starts_at and ends_at, or a recurrence, not both',
      });
      return;
    }
    if (body.recurrence) return;
    if (body.starts_at === undefined)
      ctx.addIssue({ code: 'custom', path: ['starts_at'], message: 'required (or give a recurrence)' });
    if (body.ends_at === undefined)
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'required (or give a recurrence)' });
    if (body.starts_at === undefined || body.ends_at === undefined) return;
    const length = Date.parse(body.ends_at) - Date.parse(body.starts_at);
    if (length <= 0) ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'must be after starts_at' });
    else if (length > MAX_WINDOW_MS)
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'a window lasts at most 30 days' });
  });

export type MaintenanceWindowBody = z.infer<typeof maintenanceWindowBodySchema>;
