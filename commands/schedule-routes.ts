/**
 * On-call schedule command routes: POST/PUT (any subset of the fields)/DELETE /schedules and the override routes
 * POST /schedules/{id}/overrides, DELETE /schedules/{id}/overrides/{override_id}. The decider is
 * commands/schedules.ts; users named by a schedule must be users of the tenant (checked here).
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { Schedule } from '../src/contract/schedules.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, loadStream, type CommandDeps, type LoadedStream } from '../src/commanding/command-handler.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { scheduleStream, type ScheduleData, type ScheduleEvent, type ScheduleState } from '../src/events/schedule.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, type ProblemFieldError } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { scheduleDecider, scheduleFieldsFrom, toOverride, type ScheduleCommand } from './schedules.js';
import {
  checkOverrideTimes,
  overrideBodySchema,
  scheduleBodySchema,
  scheduleChangeBodySchema,
  type ScheduleChangeBody,
} from '../src/contract/bodies/schedules.js';

/** A user id a request names, with the JSON path it was named at. */
export interface NamedUser {
  path: string;
  userId: string;
}

export interface ScheduleCommandDeps extends CommandDeps {
  /** One error per named user that is not a live user of the tenant. */
  unknownUsers: (tenantId: string, named: NamedUser[]) => Promise<ProblemFieldError[]>;
  /** Escalation policies of the tenant with this schedule as a target (it cannot be deleted while there are any). */
  policiesUsing: (tenantId: string, scheduleId: string) => Promise<{ id: string; name: string }[]>;
  viewSchedule: (tenantId: string, id: string) => Promise<Schedule | null>;
}

const namedUsers = (body: ScheduleChangeBody): NamedUser[] => [
  ...(body.layers ?? []).flatMap((layer, l) =>
    layer.user_ids.map((userId, u) => ({ path: `/layers/${l}/user_ids/${u}`, userId })),
  ),
  ...(body.overrides ?? []).map((override, o) => ({ path: `/overrides/${o}/user_id`, userId: override.user_id })),
];

export function scheduleCommandRoutes(deps: ScheduleCommandDeps) {
  const router = new Router<AppState>();
  const run = (
    ctx: CommandContext,
    scheduleId: string,
    command: ScheduleCommand,
    loaded?: LoadedStream<ScheduleState, ScheduleEvent>,
  ) =>
    handleCommand(deps, scheduleDecider, {
      stream: scheduleStream(scheduleId),
      resourceName: 'schedule',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision: ifMatchRevision(ctx),
      newStream: command.kind === 'CreateSchedule',
      loaded,
    });
  const respond = async (ctx: CommandContext, scheduleId: string, status = 200) => {
    const view = await deps.viewSchedule(ctx.state.principal.tenantId, scheduleId);
    if (!view) throw rejectNotFound('schedule');
    ok(ctx, view, status);
  };
  const assertUsersExist = async (tenantId: string, named: NamedUser[]) => {
    const errors = await deps.unknownUsers(tenantId, named);
    if (errors.length > 0) throw badRequest('some users are not users of this tenant', errors);
  };

  router.post('/schedules', requires('schedules:write'), async (ctx) => {
    const body = scheduleBodySchema.parse(ctx.request.body);
    await assertUsersExist(ctx.state.principal.tenantId, namedUsers(body));
    const scheduleId = randomUUID();
    // A whole body sets every field but overrides (none by default).
    const schedule = { scheduleId, overrides: [], ...scheduleFieldsFrom(body, randomUUID) } as ScheduleData;
    commandHeaders(ctx, await run(ctx, scheduleId, { kind: 'CreateSchedule', schedule }));
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${scheduleId}`);
    await respond(ctx, scheduleId, 201);
  });

  router.put('/schedules/:id', requires('schedules:write'), async (ctx) => {
    const scheduleId = storedResourceId(ctx.params.id, 'schedule');
    // Any subset of the fields (SPEC.md: "Updates layers, timezone or overrides"): the users it names are checked here, the merged schedule by the decider.
    const body = scheduleChangeBodySchema.parse(ctx.request.body);
    await assertUsersExist(ctx.state.principal.tenantId, namedUsers(body));
    commandHeaders(
      ctx,
      await run(ctx, scheduleId, { kind: 'UpdateSchedule', scheduleId, changes: scheduleFieldsFrom(body, randomUUID) }),
    );
    await respond(ctx, scheduleId);
  });

  router.delete('/schedules/:id', requires('schedules:write'), async (ctx) => {
    const scheduleId = storedResourceId(ctx.params.id, 'schedule');
    const policies = await deps.policiesUsing(ctx.state.principal.tenantId, scheduleId);
    if (policies.length > 0) {
      throw rejectConflict(
        `the schedule is a target of escalation policies: ${policies.map((p) => p.name).join(', ')}`,
        { referenced_by: policies },
      );
    }
    commandHeaders(ctx, await run(ctx, scheduleId, { kind: 'DeleteSchedule', scheduleId }));
    const deleted: Deleted = { id: scheduleId, deleted: true };
    ok(ctx, deleted);
  });

  router.post('/schedules/:id/overrides', requires('schedules:write'), async (ctx) => {
    const scheduleId = storedResourceId(ctx.params.id, 'schedule');
    const body = overrideBodySchema.parse(ctx.request.body);
    // One read: the schedule's zone reads the override's times, and the decider decides on the same state.
    const loaded = await loadStream(
      deps.eventStore,
      scheduleDecider,
      scheduleStream(scheduleId),
      ctx.state.principal.tenantId,
      'schedule',
    );
    if (loaded.state.status !== 'active') throw rejectNotFound('schedule');
    const errors: ProblemFieldError[] = [];
    checkOverrideTimes(body, loaded.state.schedule!.timezone, (field, message) =>
      errors.push({ path: `/${field}`, message }),
    );
    if (errors.length > 0) throw badRequest(errors.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; '), errors);
    await assertUsersExist(ctx.state.principal.tenantId, [{ path: '/user_id', userId: body.user_id }]);
    const override = toOverride(randomUUID(), body);
    commandHeaders(ctx, await run(ctx, scheduleId, { kind: 'AddOverride', scheduleId, override }, loaded));
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${override.overrideId}`);
    await respond(ctx, scheduleId, 201);
  });

  router.delete('/schedules/:id/overrides/:override_id', requires('schedules:write'), async (ctx) => {
    const scheduleId = storedResourceId(ctx.params.id, 'schedule');
    const overrideId = storedResourceId(ctx.params.override_id, 'override');
    commandHeaders(ctx, await run(ctx, scheduleId, { kind: 'RemoveOverride', scheduleId, overrideId }));
    await respond(ctx, scheduleId);
  });
  return router;
}
