/** Custom role command routes (POST/PUT/DELETE /api/v1/roles); the decider is commands/roles.ts. */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { Role } from '../src/contract/iam.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { isBuiltInRoleId } from '../src/auth/built-in-roles.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { evolveRole, roleStream } from '../src/events/role.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { grantHolderBodySchema } from '../src/contract/bodies/iam.js';
import { namedGrantHolderCommands, type NamedGrantHolderDeps } from './named-grant-holder-commands.js';
import { roleDecider } from './roles.js';

export interface RoleCommandDeps extends NamedGrantHolderDeps {
  viewRole: (tenantId: string, id: string) => Promise<Role | null>;
  /** How many live users of the tenant hold the role. */
  roleHolders: (tenantId: string, id: string) => Promise<number>;
}

export function roleCommandRoutes(deps: RoleCommandDeps) {
  const router = new Router<AppState>();
  const roles = namedGrantHolderCommands(deps, roleDecider, {
    kind: 'role',
    stream: roleStream,
    decider: { initialState: roleDecider.initialState, evolve: evolveRole },
  });
  const customRoleId = (id: string | undefined) => {
    if (id !== undefined && isBuiltInRoleId(id))
      throw rejectConflict(`${id} is a built-in role; built-in roles cannot be changed or deleted`);
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
    commandHeaders(ctx, await roles.create(envelopeFrom(ctx), id, fields));
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${id}`);
    await respond(ctx, id, 201);
  });

  router.put('/roles/:id', requires('iam:admin'), async (ctx) => {
    const id = customRoleId(ctx.params.id);
    const fields = grantHolderBodySchema.parse(ctx.request.body);
    commandHeaders(ctx, await roles.replace(envelopeFrom(ctx), id, fields, ifMatchRevision(ctx)));
    await respond(ctx, id);
  });

  router.delete('/roles/:id', requires('iam:admin'), async (ctx) => {
    const id = customRoleId(ctx.params.id);
    const expected = ifMatchRevision(ctx);
    const users = await deps.roleHolders(ctx.state.principal.tenantId, id);
    commandHeaders(ctx, await roles.delete(envelopeFrom(ctx), id, users, expected));
    const deleted: Deleted = { id, deleted: true };
    ok(ctx, deleted);
  });
  return router;
}
