/**
 * On-call schedules, read side: list and get, who is on call (`current-oncall`, optionally
 * `?at=`), and the final schedule over a range (`oncall?since=&until=`). Who is on call is computed
 * on each request from the schedule and the users as they are now (deactivated users drop out at
 * once), by the pure math in src/oncall/.
 */
import type Router from '@koa/router';
import { z } from 'zod';
import { SCHEDULES, type ScheduleDoc } from '../projections/schedules.js';
import { USERS, type UserDoc } from '../projections/users.js';
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

export const scheduleView = (doc: ScheduleDoc) => ({
  id: doc.id,
  name: doc.name,
  timezone: doc.timezone,
  layers: doc.layers.map((layer) => ({ user_ids: layer.userIds, rotation_type: layer.rotationType, start_time: layer.startTime })),
  overrides: doc.overrides.map((o) => ({ id: o.overrideId, user_id: o.userId, start: o.start, end: o.end, reason: o.reason })),
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export const findSchedule = (reader: ReadModelReader, tenantId: string, id: string) => findTenantDoc<ScheduleDoc>(reader, SCHEDULES, tenantId, id);

export const scheduleDefinition = (doc: ScheduleDoc): ScheduleDefinition => ({
  timezone: doc.timezone,
  layers: doc.layers.map((layer) => ({ userIds: layer.userIds, rotationType: layer.rotationType, startTime: layer.startTime })),
  overrides: doc.overrides.map((o) => ({ id: o.overrideId, userId: o.userId, start: o.start, end: o.end, reason: o.reason ?? undefined })),
});

/** The live users of the tenant among those the schedule names: one read. */
export async function scheduleUsers(reader: ReadModelReader, tenantId: string, doc: ScheduleDoc): Promise<Map<string, UserDoc>> {
  const ids = [...new Set([...doc.layers.flatMap((layer) => layer.userIds), ...doc.overrides.map((o) => o.userId)])];
  const users = ids.length === 0 ? [] : await reader.find<UserDoc>(USERS, { tenantId, id: { $in: ids }, isActive: true, removed: false });
  return new Map(users.map((user) => [user.id, user]));
}

const sourceView = (source: OnCallSource) =>
  source.source === 'layer' ? { source: 'layer' as const, layer: source.layerIndex } : { source: 'override' as const, override_id: source.overrideId };

const instant = z.iso.datetime({ offset: true });
export const currentOnCallQuery = z.strictObject({ at: instant.optional() });
export const onCallRangeQuery = z.strictObject({ since: instant.optional(), until: instant.optional() });
/** Without `until`, a range shows a week, like an on-call calendar's default view. */
const DEFAULT_RANGE_DAYS = 7;

export function scheduleQueryRoutes(deps: { reader: ReadModelReader; now: () => Date }): Router<AppState> {
  const router = readModelRoutes<ScheduleDoc>(deps.reader, {
    path: '/schedules',
    resourceName: 'schedule',
    permission: 'schedules:read',
    collection: SCHEDULES,
    sort: [['createdAt', 'desc']],
    view: scheduleView,
  });

  const load = async (tenantId: string, id: string) => {
    const doc = await findSchedule(deps.reader, tenantId, id);
    if (!doc) throw notFound('schedule');
    return { doc, users: await scheduleUsers(deps.reader, tenantId, doc) };
  };

  router.get('/schedules/:id/current-oncall', requires('schedules:read'), queryParameters(['at']), async (ctx) => {
    const query = currentOnCallQuery.parse(ctx.query);
    const { doc, users } = await load(ctx.state.principal.tenantId, ctx.params.id!);
    const at = query.at ? new Date(query.at) : deps.now();
    const current = currentOnCall(scheduleDefinition(doc), at, (userId) => users.has(userId));
    const user = current ? users.get(current.userId)! : undefined;
    okBare(ctx, {
      schedule_id: doc.id,
      at: formatInZone(doc.timezone, at.getTime()),
      current_oncall: current && user
        ? {
            user_id: current.userId, name: user.name, email: user.email,
            on_call_since: formatInZone(doc.timezone, current.since.getTime()),
            on_call_until: current.until ? formatInZone(doc.timezone, current.until.getTime()) : null,
            ...sourceView(current),
          }
        : null,
    });
  });

  router.get('/schedules/:id/oncall', requires('schedules:read'), queryParameters(['since', 'until']), async (ctx) => {
    const query = onCallRangeQuery.parse(ctx.query);
    const since = query.since ? new Date(query.since) : deps.now();
    const until = query.until ? new Date(query.until) : new Date(since.getTime() + DEFAULT_RANGE_DAYS * 86_400_000);
    if (until <= since) throw badRequest('until must be after since', [{ path: '/until', message: 'must be after since' }]);
    if (until.getTime() - since.getTime() > MAX_RENDER_DAYS * 86_400_000) {
      throw badRequest(`a range covers at most ${MAX_RENDER_DAYS} days`, [{ path: '/until', message: `at most ${MAX_RENDER_DAYS} days after since` }]);
    }
    const { doc, users } = await load(ctx.state.principal.tenantId, ctx.params.id!);
    const segments = renderSchedule(scheduleDefinition(doc), since, until, (userId) => users.has(userId));
    ok(ctx, {
      schedule_id: doc.id,
      since: formatInZone(doc.timezone, since.getTime()),
      until: formatInZone(doc.timezone, until.getTime()),
      segments: segments.map((segment) => {
        const user = users.get(segment.userId)!;
        return {
          user_id: segment.userId, name: user.name, email: user.email,
          start: formatInZone(doc.timezone, segment.start.getTime()), end: formatInZone(doc.timezone, segment.end.getTime()),
          ...sourceView(segment),
        };
      }),
    });
  });
  return router;
}
