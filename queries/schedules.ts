/**
 * On-call schedules, read side: list and get, who is on call (`current-oncall`, optionally
 * `?at=`), and the final schedule over a range (`oncall?since=&until=`). Who is on call is computed
 * on each request from the schedule and the users as they are now (deactivated users drop out at
 * once), by the pure math in src/oncall/.
 */
import type { CurrentOncall, OncallRange, Schedule } from '../src/contract/schedules.js';
import type Router from '@koa/router';
import { z } from 'zod';
import { SCHEDULES, type ScheduleDoc } from '../projections/schedules.js';
import { USERS, type UserDoc } from '../projections/users.js';
import { apiInstant } from '../src/contract/api-instant.js';
import { ok, okBare } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { AppState } from '../src/http/state.js';
import { currentOnCall } from '../src/oncall/current-on-call.js';
import { MAX_RENDER_DAYS, renderSchedule } from '../src/oncall/render-schedule.js';
import type { OnCallSource, ScheduleDefinition } from '../src/oncall/schedule-definition.js';
import { formatInZone } from '../src/oncall/zoned-iso.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const scheduleView = (doc: ScheduleDoc): Schedule => ({
  id: doc.id,
  name: doc.name,
  timezone: doc.timezone,
  layers: doc.layers.map((layer) => ({
    user_ids: layer.userIds,
    rotation_type: layer.rotationType,
    start_time: layer.startTime,
  })),
  overrides: doc.overrides.map((o) => ({
    id: o.overrideId,
    user_id: o.userId,
    start: o.start,
    end: o.end,
    reason: o.reason,
  })),
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export const findSchedule = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<ScheduleDoc>(reader, SCHEDULES, tenantId, id);

export const scheduleDefinition = (doc: ScheduleDoc): ScheduleDefinition => ({
  timezone: doc.timezone,
  layers: doc.layers.map((layer) => ({
    userIds: layer.userIds,
    rotationType: layer.rotationType,
    startTime: layer.startTime,
  })),
  overrides: doc.overrides.map((o) => ({
    id: o.overrideId,
    userId: o.userId,
    start: o.start,
    end: o.end,
    reason: o.reason ?? undefined,
  })),
});

/** The live users of the tenant among those the schedule names: one read. */
export async function scheduleUsers(
  reader: ReadModelReader,
  tenantId: string,
  definition: ScheduleDefinition,
): Promise<Map<string, UserDoc>> {
  const ids = [
    ...new Set([...definition.layers.flatMap((layer) => layer.userIds), ...definition.overrides.map((o) => o.userId)]),
  ];
  const users =
    ids.length === 0
      ? []
      : await reader.find<UserDoc>(USERS, { tenantId, id: { $in: ids }, isActive: true, removed: false });
  return new Map(users.map((user) => [user.id, user]));
}

const sourceView = (source: OnCallSource) =>
  source.source === 'layer'
    ? { source: 'layer' as const, layer: source.layerIndex }
    : { source: 'override' as const, override_id: source.overrideId };

const instant = apiInstant;
export const currentOnCallQuery = z.strictObject({ at: instant.optional() });
export const onCallRangeQuery = z.strictObject({ since: instant.optional(), until: instant.optional() });
/** Without `until`, a range shows a week, like an on-call calendar's default view. */
const DEFAULT_RANGE_DAYS = 7;

/** The range a query asks for (`since`, `until`): a week from now unless told, at most MAX_RENDER_DAYS; a 400 otherwise. */
export function onCallRange(query: unknown, now: Date): { since: Date; until: Date } {
  const parsed = onCallRangeQuery.parse(query);
  const since = parsed.since ? new Date(parsed.since) : now;
  const until = parsed.until ? new Date(parsed.until) : new Date(since.getTime() + DEFAULT_RANGE_DAYS * 86_400_000);
  if (until <= since)
    throw badRequest('until must be after since', [{ path: '/until', message: 'must be after since' }]);
  if (until.getTime() - since.getTime() > MAX_RENDER_DAYS * 86_400_000) {
    throw badRequest(`a range covers at most ${MAX_RENDER_DAYS} days`, [
      { path: '/until', message: `at most ${MAX_RENDER_DAYS} days after since` },
    ]);
  }
  return { since, until };
}

/**
 * The final schedule of a definition over [since, until) as the range route answers it (less its
 * schedule_id), the users as they are now. A saved schedule and an unsaved one (the preview) render
 * through this one function, so the preview shows what saving would.
 */
export async function renderOnCallRange(
  reader: ReadModelReader,
  tenantId: string,
  definition: ScheduleDefinition,
  since: Date,
  until: Date,
): Promise<Omit<OncallRange, 'schedule_id'>> {
  const users = await scheduleUsers(reader, tenantId, definition);
  const segments = renderSchedule(definition, since, until, (userId) => users.has(userId));
  return {
    since: formatInZone(definition.timezone, since.getTime()),
    until: formatInZone(definition.timezone, until.getTime()),
    segments: segments.map((segment) => {
      const user = users.get(segment.userId)!;
      return {
        user_id: segment.userId,
        name: user.name,
        email: user.email,
        start: formatInZone(definition.timezone, segment.start.getTime()),
        end: formatInZone(definition.timezone, segment.end.getTime()),
        ...sourceView(segment),
      };
    }),
  };
}

export function scheduleQueryRoutes(deps: { reader: ReadModelReader; now: () => Date }): Router<AppState> {
  const router = readModelRoutes<ScheduleDoc>(deps.reader, {
    path: '/schedules',
    resourceName: 'schedule',
    permission: 'schedules:read',
    collection: SCHEDULES,
    sort: [['createdAt', 'desc']],
    view: scheduleView,
  });

  router.get('/schedules/:id/current-oncall', requires('schedules:read'), queryParameters(['at']), async (ctx) => {
    const query = currentOnCallQuery.parse(ctx.query);
    const doc = await findSchedule(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('schedule');
    const definition = scheduleDefinition(doc);
    const users = await scheduleUsers(deps.reader, ctx.state.principal.tenantId, definition);
    const at = query.at ? new Date(query.at) : deps.now();
    const current = currentOnCall(definition, at, (userId) => users.has(userId));
    const user = current ? users.get(current.userId)! : undefined;
    const answer: CurrentOncall = {
      schedule_id: doc.id,
      at: formatInZone(doc.timezone, at.getTime()),
      current_oncall:
        current && user
          ? {
              user_id: current.userId,
              name: user.name,
              email: user.email,
              on_call_since: formatInZone(doc.timezone, current.since.getTime()),
              on_call_until: current.until ? formatInZone(doc.timezone, current.until.getTime()) : null,
              ...sourceView(current),
            }
          : null,
    };
    okBare(ctx, answer);
  });

  router.get('/schedules/:id/oncall', requires('schedules:read'), queryParameters(['since', 'until']), async (ctx) => {
    const { since, until } = onCallRange(ctx.query, deps.now());
    const doc = await findSchedule(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('schedule');
    const range: OncallRange = {
      schedule_id: doc.id,
      ...(await renderOnCallRange(deps.reader, ctx.state.principal.tenantId, scheduleDefinition(doc), since, until)),
    };
    ok(ctx, range);
  });
  return router;
}
