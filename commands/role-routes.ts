/** Custom role command routes (POST/PUT/DELETE /api/v1/roles); the decider is commands/roles.ts. */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { isBuiltInRoleId } from '../src/auth/built-in-roles.js';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { roleStream } from '../src/events/role.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { grantHolderBodySchema, type GrantHolderCommand } from './grant-holder.js';
import { roleDecider } from './roles.js';

export interface RoleCommandDeps extends CommandDeps {
  viewRole: (tenantId: string, id: string) => Promise<Record<string, unknown> | null>;
  /** How many live users of the tenant hold the role. */
  roleHolders: (tenantId: string, id: string) => Promise<number>;
}

export function roleCommandRoutes(deps: RoleCommandDeps) {
  const router = new Router<AppState>();
  const run = (ctx: Context & { state: AppState }, command: GrantHolderCommand, expectedRevision?: bigint) =>
    handleCommand(deps, roleDecider, { stream: roleStream(command.id), resourceName: 'role', command, envelope: envelopeFrom(ctx), expectedRevision });
  const customRoleId = (id: string | undefined) => {
    if (id !== undefined && isBuiltInRoleId(id)) throw rejectConflict(`${id} is a built-in role; built-in roles cannot be changed or deleted`);
    return storedResourceId(id, 'role');
  };
  const respond = async (ctx: Context & { state: AppState }, id: string, status = 200) => {
    const view = await deps.viewRole(ctx.state.principal.tenantId, id);
    if (!view) throw rejectNotFound('role');
    ok(ctx, view, status);
  };

  router.post('/roles', requires('iam:admin'), async (ctx) => {
    const fields = grantHolderBodySchema.parse(ctx.request.body);
    const id = randomUUID();
    commandHeaders(ctx, await run(ctx, { kind: 'Create', id, fields }));
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${id}`);
    await respond(ctx, id, 201);
  });

  router.put('/roles/:id', requires('iam:admin'), async (ctx) => {
    const id = customRoleId(ctx.params.id);
    const fields = grantHolderBodySchema.parse(ctx.request.body);
    commandHeaders(ctx, await run(ctx, { kind: 'Update', id, fields }, ifMatchRevision(ctx)));
    await respond(ctx, id);
  });

  router.delete('/roles/:id', requires('iam:admin'), async (ctx) => {
    const id = customRoleId(ctx.params.id);
    const expected = ifMatchRevision(ctx);
    const users = await deps.roleHolders(ctx.state.principal.tenantId, id);
    commandHeaders(ctx, await run(ctx, { kind: 'Delete', id, users }, expected));
    ok(ctx, { id, deleted: true });
  });
  return router;
}
