/**
 * A user's permission overrides (the first level of resolution; not part of the User resource).
 * Changing them needs iam:admin. PUT replaces the whole map; DELETE clears it.
 */
import type { PermissionOverrides } from '../src/contract/iam.js';
import Router from '@koa/router';
import { permissionsBodySchema } from '../src/contract/bodies/iam.js';
import type { Context } from 'koa';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import type { PermissionGrants } from '../src/events/permission-grants.js';
import { userStream } from '../src/events/user.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { userDecider } from './users.js';

export function userOverrideRoutes(deps: CommandDeps) {
  const router = new Router<AppState>();

  async function setOverrides(ctx: Context & { state: AppState }, permissions: PermissionGrants) {
    const userId = storedResourceId(ctx.params.id, 'user');
    const outcome = await handleCommand(deps, userDecider, {
      stream: userStream(userId),
      resourceName: 'user',
      command: { kind: 'SetPermissionOverrides', userId, permissions },
      envelope: envelopeFrom(ctx),
      expectedRevision: ifMatchRevision(ctx),
    });
    commandHeaders(ctx, outcome);
    const overrides: PermissionOverrides = { user_id: userId, permissions };
    ok(ctx, overrides);
  }

  router.put('/users/:id/permission-overrides', requires('iam:admin'), async (ctx) => {
    await setOverrides(ctx, permissionsBodySchema.parse(ctx.request.body).permissions);
  });

  router.delete('/users/:id/permission-overrides', requires('iam:admin'), async (ctx) => {
    await setOverrides(ctx, {});
  });
  return router;
}
