/**
 * POST /schedules/preview?since=&until=: who would be on call under a schedule that is not saved
 * yet, so an editor can show the timeline before saving. The body is checked exactly as a create's
 * (same schema, same tenant-users check, same 400s) and rendered by the same function as the saved
 * schedule's range query (GET /schedules/{id}/oncall), so the preview is what saving would show.
 * Nothing is appended; it needs only schedules:read.
 *
 * It lives in commands/ because it takes a body (queries/ serves GET routes only); the read models it
 * needs come in as functions from the composition root.
 */
import type { OncallRange, SchedulePreview } from '../src/contract/schedules.js';
import Router from '@koa/router';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, type ProblemFieldError } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import type { ScheduleDefinition } from '../src/oncall/schedule-definition.js';
import type { NamedUser } from './schedule-routes.js';
import { scheduleBodySchema, type ScheduleBody } from '../src/contract/bodies/schedules.js';

export interface SchedulePreviewDeps {
  /** One error per named user that is not a live user of the tenant (as for a create). */
  unknownUsers: (tenantId: string, named: NamedUser[]) => Promise<ProblemFieldError[]>;
  /** The range query's answer (since, until, segments) for a definition over the range `query` asks for; a 400 for a bad range. */
  renderRange: (
    tenantId: string,
    definition: ScheduleDefinition,
    query: unknown,
  ) => Promise<Omit<OncallRange, 'schedule_id'>>;
}

/** The definition the body would save; overrides have no id yet, so each is named by its index in the body. */
export const previewDefinition = (body: ScheduleBody): ScheduleDefinition => ({
  timezone: body.timezone,
  layers: body.layers.map((layer) => ({
    userIds: layer.user_ids,
    rotationType: layer.rotation_type,
    startTime: layer.start_time,
  })),
  overrides: (body.overrides ?? []).map((override, index) => ({
    id: String(index),
    userId: override.user_id,
    start: override.start,
    end: override.end,
    reason: override.reason ?? undefined,
  })),
});

const namedUsers = (body: ScheduleBody): NamedUser[] => [
  ...body.layers.flatMap((layer, l) =>
    layer.user_ids.map((userId, u) => ({ path: `/layers/${l}/user_ids/${u}`, userId })),
  ),
  ...(body.overrides ?? []).map((override, o) => ({ path: `/overrides/${o}/user_id`, userId: override.user_id })),
];

export function schedulePreviewRoutes(deps: SchedulePreviewDeps) {
  const router = new Router<AppState>();
  router.post('/schedules/preview', requires('schedules:read'), queryParameters(['since', 'until']), async (ctx) => {
    const tenantId = ctx.state.principal.tenantId;
    const body = scheduleBodySchema.parse(ctx.request.body);
    const unknown = await deps.unknownUsers(tenantId, namedUsers(body));
    if (unknown.length > 0) throw badRequest('some users are not users of this tenant', unknown);
    const range = await deps.renderRange(tenantId, previewDefinition(body), ctx.query);
    const preview: SchedulePreview = {
      ...range,
      // `override` (its index in the body) in place of the id a saved override gets, like `layer`.
      segments: range.segments.map(({ override_id: index, ...segment }) =>
        segment.source === 'override' ? { ...segment, override: Number(index) } : segment,
      ),
    };
    ok(ctx, preview);
  });
  return router;
}
