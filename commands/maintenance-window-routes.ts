/**
 * Maintenance window command routes. The rule ids a matcher names must be rules of the tenant
 * (checked before the decider, commands/maintenance-windows.ts, so a refused request changes
 * nothing): a window naming a rule that does not exist would silently silence nothing.
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { MaintenanceWindow } from '../src/contract/maintenance-windows.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { maintenanceWindowStream, type MaintenanceWindowData } from '../src/events/maintenance-window.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { maintenanceWindowDecider, toWindowData, type MaintenanceWindowCommand } from './maintenance-windows.js';
import { maintenanceWindowBodySchema } from '../src/contract/bodies/maintenance-windows.js';

export interface MaintenanceWindowCommandDeps extends CommandDeps {
  /** Which of these ids are not (live) alert rules of the tenant. */
  unknownRuleIds: (tenantId: string, ruleIds: string[]) => Promise<string[]>;
  viewWindow: (tenantId: string, id: string) => Promise<MaintenanceWindow | null>;
}

export function maintenanceWindowCommandRoutes(deps: MaintenanceWindowCommandDeps) {
  const router = new Router<AppState>();

  const checkRules = async (tenantId: string, window: MaintenanceWindowData) => {
    const unknown = new Set(await deps.unknownRuleIds(tenantId, window.matcher.ruleIds));
    const errors = window.matcher.ruleIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => unknown.has(id))
      .map(({ index }) => ({
        path: `/matcher/rule_ids/${index}`,
        message: 'no alert rule with this id in the tenant',
      }));
    if (errors.length > 0) throw badRequest(`matcher.rule_ids: unknown alert rules ${[...unknown].join(', ')}`, errors);
  };
  const respond = async (
    ctx: CommandContext,
    windowId: string,
    command: MaintenanceWindowCommand,
    status: 200 | 201 = 200,
  ) => {
    const outcome = await handleCommand(deps, maintenanceWindowDecider, {
      stream: maintenanceWindowStream(windowId),
      resourceName: 'maintenance window',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision: command.kind === 'CreateMaintenanceWindow' ? undefined : ifMatchRevision(ctx),
      newStream: command.kind === 'CreateMaintenanceWindow',
    });
    commandHeaders(ctx, outcome);
    if (status === 201) ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${windowId}`);
    return outcome;
  };

  router.post('/maintenance-windows', requires('alerts:write'), async (ctx) => {
    const body = maintenanceWindowBodySchema.parse(ctx.request.body);
    const window = toWindowData(randomUUID(), body);
    await checkRules(ctx.state.principal.tenantId, window);
    await respond(ctx, window.windowId, { kind: 'CreateMaintenanceWindow', window }, 201);
    ok(ctx, await deps.viewWindow(ctx.state.principal.tenantId, window.windowId), 201);
  });

  router.put('/maintenance-windows/:id', requires('alerts:write'), async (ctx) => {
    const windowId = storedResourceId(ctx.params.id, 'maintenance window');
    const window = toWindowData(windowId, maintenanceWindowBodySchema.parse(ctx.request.body));
    await checkRules(ctx.state.principal.tenantId, window);
    await respond(ctx, windowId, { kind: 'UpdateMaintenanceWindow', window });
    ok(ctx, await deps.viewWindow(ctx.state.principal.tenantId, windowId));
  });

  /** Ends the window now: inactive from this instant on (a weekly one for good). Held escalations resume. */
  router.post('/maintenance-windows/:id/end', requires('alerts:write'), async (ctx) => {
    const windowId = storedResourceId(ctx.params.id, 'maintenance window');
    await respond(ctx, windowId, { kind: 'EndMaintenanceWindow', windowId });
    ok(ctx, await deps.viewWindow(ctx.state.principal.tenantId, windowId));
  });

  router.delete('/maintenance-windows/:id', requires('alerts:write'), async (ctx) => {
    const windowId = storedResourceId(ctx.params.id, 'maintenance window');
    await respond(ctx, windowId, { kind: 'DeleteMaintenanceWindow', windowId });
    const deleted: Deleted = { id: windowId, deleted: true };
    ok(ctx, deleted);
  });
  return router;
}
