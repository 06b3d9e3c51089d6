/**
 * Group command routes: POST/PUT/DELETE /api/v1/groups, and membership PUT/DELETE
 * /api/v1/groups/{id}/members/{user_id}. Membership is the user's group_ids, so the member routes
 * change the user (commands/users.ts). The group decider is commands/groups.ts.
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { Group } from '../src/contract/iam.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { handleCommand } from '../src/commanding/command-handler.js';
import { rejectNotFound } from '../src/commanding/domain-rejection.js';
import { evolveGroup, groupStream } from '../src/events/group.js';
import { userStream } from '../src/events/user.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { grantHolderBodySchema } from '../src/contract/bodies/iam.js';
import { groupDecider } from './groups.js';
import { namedGrantHolderCommands, type NamedGrantHolderDeps } from './named-grant-holder-commands.js';
import { userDecider } from './users.js';

export interface GroupCommandDeps extends NamedGrantHolderDeps {
  /** The group as clients see it (null: not a group of the tenant). */
  viewGroup: (tenantId: string, id: string) => Promise<Group | null>;
  /** How many live users of the tenant belong to the group. */
  groupMembers: (tenantId: string, id: string) => Promise<number>;
}

type RouteContext = Context & { state: AppState };

export function groupCommandRoutes(deps: GroupCommandDeps) {
  const router = new Router<AppState>();
  const groups = namedGrantHolderCommands(deps, groupDecider, {
    kind: 'group',
    stream: groupStream,
    decider: { initialState: groupDecider.initialState, evolve: evolveGroup },
  });
  const respond = async (ctx: RouteContext, id: string, status = 200) => {
    const view = await deps.viewGroup(ctx.state.principal.tenantId, id);
    if (!view) throw rejectNotFound('group');
    ok(ctx, view, status);
  };

  router.post('/groups', requires('iam:admin'), async (ctx) => {
    const fields = grantHolderBodySchema.parse(ctx.request.body);
    const id = randomUUID();
    commandHeaders(ctx, await groups.create(envelopeFrom(ctx), id, fields));
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${id}`);
    await respond(ctx, id, 201);
  });

  router.put('/groups/:id', requires('iam:admin'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'group');
    const fields = grantHolderBodySchema.parse(ctx.request.body);
    commandHeaders(ctx, await groups.replace(envelopeFrom(ctx), id, fields, ifMatchRevision(ctx)));
    await respond(ctx, id);
  });

  router.delete('/groups/:id', requires('iam:admin'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'group');
    const expected = ifMatchRevision(ctx);
    const users = await deps.groupMembers(ctx.state.principal.tenantId, id);
    commandHeaders(ctx, await groups.delete(envelopeFrom(ctx), id, users, expected));
    const deleted: Deleted = { id, deleted: true };
    ok(ctx, deleted);
  });

  /** Joins or leaves: the group must be the tenant's, the user a live user of the tenant. */
  async function membership(ctx: RouteContext, kind: 'JoinGroup' | 'LeaveGroup') {
    const groupId = storedResourceId(ctx.params.id, 'group');
    if (!(await deps.viewGroup(ctx.state.principal.tenantId, groupId))) throw rejectNotFound('group');
    const userId = storedResourceId(ctx.params.user_id, 'user');
    await handleCommand(deps, userDecider, {
      stream: userStream(userId),
      resourceName: 'user',
      command: { kind, userId, groupId },
      envelope: envelopeFrom(ctx),
    });
    await respond(ctx, groupId);
  }

  router.put('/groups/:id/members/:user_id', requires('iam:admin'), (ctx) => membership(ctx, 'JoinGroup'));
  router.delete('/groups/:id/members/:user_id', requires('iam:admin'), (ctx) => membership(ctx, 'LeaveGroup'));
  return router;
}
