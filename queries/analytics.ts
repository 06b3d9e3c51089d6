/**
 * Incident analytics and on-call health, read side: the facts of the incidents opened in a range
 * (read model `incidentAnalytics`, one tenant-filtered indexed read) aggregated by
 * src/analytics/*, as JSON or, with `Accept: text/csv`, as CSV with the same numbers.
 */
import type { IncidentAnalytics, OncallHealth } from '../src/contract/analytics.js';
import Router from '@koa/router';
import { z } from 'zod';
import {
  INCIDENT_ANALYTICS,
  INCIDENT_PAGES,
  type IncidentFactsDoc,
  type PageDoc,
} from '../projections/incident-analytics.js';
import { SCHEDULES, type ScheduleDoc } from '../projections/schedules.js';
import { USERS, type UserDoc } from '../projections/users.js';
import { GROUP_BY, incidentGroups, noisiestRules } from '../src/analytics/incident-stats.js';
import { onCallHealth } from '../src/analytics/oncall-health.js';
import { RESOLUTION_REASONS } from '../src/events/incident.js';
import { NOTIFY_MEDIA } from '../src/events/vocabulary.js';
import { apiInstant } from '../src/contract/api-instant.js';
import { okCsv, wantsCsv } from '../src/http/csv.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { heavyRequest, type HeavyRequestSlots } from '../src/http/heavy-request-slots.js';
import { badRequest } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import { isValidTimeZone } from '../src/oncall/zone-offsets.js';
import { findInPages } from '../src/readstore/find-in-pages.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { timeSlices, type Pause } from '../src/time-slice.js';
import { scheduleDefinition } from './schedules.js';

const DAY_MS = 86_400_000;
/** Without `since`, the 30 days before `until` (default: now). */
export const DEFAULT_ANALYTICS_DAYS = 30;
export const MAX_ANALYTICS_DAYS = 366;

const instant = apiInstant;
export const analyticsRangeQuery = {
  since: instant
    .optional()
    .meta({ description: `start of the range (inclusive); default: ${DEFAULT_ANALYTICS_DAYS} days before until` }),
  until: instant.optional().meta({ description: 'end of the range (exclusive); default: now' }),
};
export const incidentAnalyticsQuery = z.strictObject({
  ...analyticsRangeQuery,
  group_by: z.enum(GROUP_BY).default('rule').meta({ description: 'what a row counts' }),
  tz: z
    .string()
    .optional()
    .refine((zone) => zone === undefined || isValidTimeZone(zone), 'an IANA time zone such as Europe/Berlin')
    .meta({ description: 'the zone of day and week buckets (default UTC); weeks start on Monday' }),
});
export const onCallAnalyticsQuery = z.strictObject(analyticsRangeQuery);

/** The range a query names: [since, until), at most MAX_ANALYTICS_DAYS; a 400 otherwise. */
export function analyticsRange(query: { since?: string; until?: string }, now: Date): { since: Date; until: Date } {
  const until = query.until ? new Date(query.until) : now;
  const since = query.since ? new Date(query.since) : new Date(until.getTime() - DEFAULT_ANALYTICS_DAYS * DAY_MS);
  if (until <= since)
    throw badRequest('until must be after since', [{ path: '/until', message: 'must be after since' }]);
  if (until.getTime() - since.getTime() > MAX_ANALYTICS_DAYS * DAY_MS) {
    throw badRequest(`a range covers at most ${MAX_ANALYTICS_DAYS} days`, [
      { path: '/until', message: `at most ${MAX_ANALYTICS_DAYS} days after since` },
    ]);
  }
  return { since, until };
}

/**
 * The incidents of the tenant triggered in [from, to), oldest first. A year may be ~15,000
 * documents: read a thousand at a time along the (tenantId, triggeredAt) index, each page its turn
 * of the request's time slice.
 */
const incidentsOpened = (reader: ReadModelReader, tenantId: string, from: Date, to: Date, pause: Pause) =>
  findInPages<IncidentFactsDoc>(
    reader,
    INCIDENT_ANALYTICS,
    { tenantId, triggeredAt: { $gte: from.toISOString(), $lt: to.toISOString() } },
    1000,
    pause,
    'triggeredAt',
  );

const INCIDENT_CSV_HEADER = [
  'key',
  'label',
  'opened',
  'acknowledged',
  ...RESOLUTION_REASONS.map((r) => `resolved_${r}`),
  'resolved_total',
  'mtta_seconds',
  'p90_tta_seconds',
  'mttr_seconds',
  'p90_ttr_seconds',
  'escalated_to_stage_2',
  ...NOTIFY_MEDIA.map((m) => `pages_${m}`),
  'failed_pages',
];
/** Without iam:read, no `email` column (a caller who may not list users reads names only, as /user-names gives them). */
const oncallCsvHeader = (withEmail: boolean) => [
  'user_id',
  'name',
  ...(withEmail ? ['email'] : []),
  'pages_received',
  'pages_at_night',
  'zones_used',
  'hours_on_call',
];

/**
 * Both routes are heavy requests (a year of incidents; a year of every schedule rendered): each
 * holds one of the instance's slots, capped per tenant and in total (src/http/heavy-request-slots.ts).
 */
export function analyticsQueryRoutes(deps: { reader: ReadModelReader; now: () => Date; slots: HeavyRequestSlots }) {
  const router = new Router<AppState>();
  const heavy = heavyRequest(deps.slots);

  router.get(
    '/analytics/incidents',
    requires('analytics:read'),
    queryParameters(Object.keys(incidentAnalyticsQuery.shape)),
    heavy,
    async (ctx) => {
      const query = incidentAnalyticsQuery.parse(ctx.query);
      const { since, until } = analyticsRange(query, deps.now());
      const timeZone = query.tz ?? 'UTC';
      const docs = await incidentsOpened(deps.reader, ctx.state.principal.tenantId, since, until, timeSlices());
      const groups = incidentGroups(docs, query.group_by, timeZone);
      if (wantsCsv(ctx)) {
        okCsv(
          ctx,
          INCIDENT_CSV_HEADER,
          groups.map((g) => [
            g.key,
            g.label,
            g.opened,
            g.acknowledged,
            ...RESOLUTION_REASONS.map((r) => g.resolved[r]),
            g.resolved.total,
            g.mtta_seconds,
            g.p90_tta_seconds,
            g.mttr_seconds,
            g.p90_ttr_seconds,
            g.escalated_to_stage_2,
            ...NOTIFY_MEDIA.map((m) => g.pages[m] ?? 0),
            g.failed_pages,
          ]),
          `incidents-by-${query.group_by}.csv`,
        );
        return;
      }
      const answer: IncidentAnalytics = {
        since: since.toISOString(),
        until: until.toISOString(),
        group_by: query.group_by,
        tz: timeZone,
        groups,
        noisiest: noisiestRules(docs, until.getTime() - since.getTime()),
      };
      ok(ctx, answer);
    },
  );

  router.get(
    '/analytics/oncall',
    requires('analytics:read'),
    queryParameters(Object.keys(onCallAnalyticsQuery.shape)),
    heavy,
    async (ctx) => {
      const { since, until } = analyticsRange(onCallAnalyticsQuery.parse(ctx.query), deps.now());
      const { tenantId } = ctx.state.principal;
      const withEmail = await ctx.state.can('iam:read');
      // Read in pages, each its turn of the slice: a hundred large schedules are megabytes to parse.
      const pause = timeSlices();
      const pages = await findInPages<PageDoc>(
        deps.reader,
        INCIDENT_PAGES,
        { tenantId, at: { $gte: since.toISOString(), $lt: until.toISOString() }, ok: true },
        1000,
        pause,
      );
      const schedules = await findInPages<ScheduleDoc>(deps.reader, SCHEDULES, { tenantId }, 5, pause);
      const users = await findInPages<UserDoc>(deps.reader, USERS, { tenantId }, 500, pause);
      const byId = new Map(users.map((user) => [user.id, user]));
      const people = (
        await onCallHealth(
          {
            since,
            until,
            pages,
            schedules: schedules.map((doc) => ({ id: doc.id, definition: scheduleDefinition(doc) })),
            isActiveUser: (userId) => {
              const user = byId.get(userId);
              return !!user && user.isActive && !user.removed;
            },
          },
          pause,
        )
      ).map((person) => ({
        ...person,
        name: byId.get(person.user_id)?.name ?? null,
        ...(withEmail ? { email: byId.get(person.user_id)?.email ?? null } : {}),
      }));
      if (wantsCsv(ctx)) {
        okCsv(
          ctx,
          oncallCsvHeader(withEmail),
          people.map((p) => [
            p.user_id,
            p.name,
            ...(withEmail ? [p.email ?? null] : []),
            p.pages_received,
            p.pages_at_night,
            p.zones_used.map((z) => `${z.zone} (${z.source})`).join('; '),
            p.hours_on_call,
          ]),
          'oncall.csv',
        );
        return;
      }
      const health: OncallHealth = { since: since.toISOString(), until: until.toISOString(), people };
      ok(ctx, health);
    },
  );
  return router;
}
