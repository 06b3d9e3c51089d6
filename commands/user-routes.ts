/**
 * User command routes (SPEC.md, Users): create, change (PUT and PATCH, any subset of fields), delete, and retry
 * the invitation. Uniqueness of the email is kept by commands/user-email-reservations.ts; the
 * invitation runs after the user is stored (commands/user-invitations.ts).
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { User } from '../src/contract/iam.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { assertCallerMayAssign, resolveAssignments, type GrantSourceLookup } from '../src/auth/assignment-guard.js';
import { assertCallerMayChangeUser, assertCallerMayCreateUser } from '../src/auth/user-change-guard.js';
import { changeCheckedAgainstTarget } from '../src/auth/user-change-rule.js';
import {
  handleCommand,
  loadStream,
  type CommandDeps,
  type CommandEnvelope,
  type LoadedStream,
} from '../src/commanding/command-handler.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { commandHeaders, envelopeFrom, etagOf, ifMatchRevision } from '../src/http/command-context.js';
import { setReadPosition } from '../src/http/read-position.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { HttpProblem } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import { storedResourceId } from '../src/http/resource-id.js';
import { emailKey, userStream, type UserEvent, type UserState } from '../src/events/user.js';
import { releaseEmail, reserveEmail } from './user-email-reservations.js';
import type { InviteUser } from './user-invitations.js';
import { userChangesFrom, userDecider, type UserChanges, type UserCommand } from './users.js';
import { createUserBodySchema, patchUserBodySchema } from '../src/contract/bodies/iam.js';

export interface UserCommandDeps extends CommandDeps {
  assignments: GrantSourceLookup;
  /** The user as clients see it, with its revision (for the ETag), after the command. */
  viewUser: (tenantId: string, id: string) => Promise<{ data: User; revision: number } | null>;
  invite: InviteUser;
  logger: Logger;
}

type RouteContext = Context & { state: AppState };

export function userCommandRoutes(deps: UserCommandDeps) {
  const router = new Router<AppState>();
  const run = (
    ctx: RouteContext,
    command: UserCommand,
    expectedRevision?: bigint,
    loaded?: LoadedStream<UserState, UserEvent>,
  ) =>
    handleCommand(deps, userDecider, {
      stream: userStream(command.userId),
      resourceName: 'user',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision,
      loaded,
    });

  /** Releasing is tidying up: if it fails, the reservation is taken over later (see the reservation module). */
  const releaseQuietly = (envelope: CommandEnvelope, email: string, userId: string) =>
    releaseEmail(deps, envelope, email, userId).catch((error) =>
      deps.logger.warn({ err: error, userId }, 'could not release an email reservation'),
    );

  /** Answers the user as the read model has it (its ETag is the revision shown), with the writes' read position. */
  async function respond(
    ctx: RouteContext,
    id: string,
    status: number,
    written: { projected: boolean; position: bigint | null },
  ) {
    const view = await deps.viewUser(ctx.state.principal.tenantId, id);
    if (!view) throw rejectNotFound('user');
    ctx.set('ETag', etagOf(view.revision));
    setReadPosition(ctx, written.position);
    if (!written.projected) ctx.set('X-Read-Model-Pending', 'true');
    ok(ctx, view.data, status);
  }

  router.post('/users', requires('iam:write'), async (ctx) => {
    const body = createUserBodySchema.parse(ctx.request.body);
    const { role, groups } = await resolveAssignments(deps.assignments, ctx.state.principal.tenantId, {
      roleId: body.role_id,
      groupIds: body.group_ids,
    });
    await assertCallerMayAssign(ctx.state, [...(role ? [role] : []), ...groups]);
    await assertCallerMayCreateUser(ctx.state, deps.assignments, {
      email: body.email,
      name: body.name,
      roleId: body.role_id,
      groupIds: body.group_ids,
      phone: body.phone,
    });
    const userId = randomUUID();
    const envelope = envelopeFrom(ctx);
    await reserveEmail(deps, envelope, body.email, userId);
    let created;
    try {
      const profile = {
        email: body.email,
        name: body.name,
        roleId: body.role_id,
        groupIds: body.group_ids,
        phone: body.phone,
      };
      created = await run(ctx, { kind: 'CreateUser', userId, profile, isActive: body.is_active });
    } catch (error) {
      await releaseQuietly(envelope, body.email, userId);
      throw error;
    }
    if (body.is_active) {
      // The user is stored whatever happens here; a failure shows as invitation_status and is retried by POST .../invite.
      const invited = await deps
        .invite(envelope, userId)
        .catch((error) => deps.logger.error({ err: error, userId }, 'could not record the invitation'));
      if (invited) setReadPosition(ctx, invited.position);
    }
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${userId}`);
    await respond(ctx, userId, 201, created);
  });

  async function update(ctx: RouteContext, { changes, isActive }: UserChanges) {
    const id = storedResourceId(ctx.params.id, 'user');
    const envelope = envelopeFrom(ctx);
    const loaded = await loadStream(deps.eventStore, userDecider, userStream(id), envelope.tenantId, 'user');
    const current = loaded.state.profile;
    if (!current || loaded.state.status === 'removed') throw rejectNotFound('user');
    const ifMatch = ifMatchRevision(ctx);
    if (ifMatch !== undefined && ifMatch !== loaded.revision) {
      throw rejectConflict(`user was changed by someone else (revision ${String(loaded.revision)}, not ${ifMatch})`, {
        current_revision: String(loaded.revision),
      });
    }
    const { role, groups } = await resolveAssignments(deps.assignments, envelope.tenantId, {
      roleId: changes.roleId,
      groupIds: changes.groupIds,
    });
    // Only what the change newly grants is checked: editing the name of a more powerful user is fine.
    const newRole = role && role.id !== current.roleId ? [role] : [];
    await assertCallerMayAssign(ctx.state, [
      ...newRole,
      ...groups.filter((group) => !current.groupIds.includes(group.id)),
    ]);
    await assertCallerMayChangeUser(ctx.state, deps.assignments, {
      targetId: id,
      target: loaded.state,
      changes,
      isActive,
    });
    const newEmail =
      changes.email !== undefined && emailKey(changes.email) !== emailKey(current.email) ? changes.email : undefined;
    if (newEmail) await reserveEmail(deps, envelope, newEmail, id);
    let outcome;
    try {
      // The checks above, and an email reserved against this profile, hold for the revision read:
      // expect it (a 409 on a concurrent change) rather than let a retry re-decide unchecked.
      const pinned = newEmail !== undefined || changeCheckedAgainstTarget(changes, isActive);
      outcome = await run(
        ctx,
        { kind: 'UpdateUser', userId: id, changes, isActive },
        ifMatch ?? (pinned ? loaded.revision! : undefined),
        loaded,
      );
    } catch (error) {
      if (newEmail) await releaseQuietly(envelope, newEmail, id);
      throw error;
    }
    if (newEmail) await releaseQuietly(envelope, current.email, id);
    await respond(ctx, id, 200, outcome);
  }

  // PUT takes a partial body too (SPEC.md: "Update with is_active false"): the same change as PATCH.
  for (const method of ['put', 'patch'] as const) {
    router[method]('/users/:id', requires('iam:write'), async (ctx) => {
      await update(ctx, userChangesFrom(patchUserBodySchema.parse(ctx.request.body)));
    });
  }

  router.delete('/users/:id', requires('iam:admin'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'user');
    const envelope = envelopeFrom(ctx);
    const outcome = await run(ctx, { kind: 'RemoveUser', userId: id }, ifMatchRevision(ctx));
    // The address may be used again (by a new user); the removed user's history keeps it.
    if (outcome.state.profile) await releaseQuietly(envelope, outcome.state.profile.email, id);
    commandHeaders(ctx, outcome);
    const deleted: Deleted = { id, deleted: true };
    ok(ctx, deleted);
  });

  router.post('/users/:id/invite', requires('iam:write'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'user');
    const envelope = envelopeFrom(ctx);
    const { state: target } = await loadStream(deps.eventStore, userDecider, userStream(id), envelope.tenantId, 'user');
    // An absent user is left to the invitation's own 404.
    if (target.profile)
      await assertCallerMayChangeUser(ctx.state, deps.assignments, {
        targetId: id,
        target,
        changes: {},
        invitation: true,
      });
    const outcome = await deps.invite(envelope, id);
    if (!outcome.sent) {
      throw new HttpProblem(503, 'Service Unavailable', `the invitation failed: ${outcome.error}`, undefined, {
        invitation_status: 'failed',
      });
    }
    await respond(ctx, id, 200, { projected: true, position: outcome.position });
  });
  return router;
}
