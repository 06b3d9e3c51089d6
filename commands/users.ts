/**
 * Users: the decider, and a change body in event terms (what clients send, SPEC.md User: email,
 * name, role_id, group_ids, is_active, is src/contract/bodies/iam.ts). The model is src/events/user.ts; the routes are commands/user-routes.ts. Group
 * membership is part of the user, so the group member routes issue JoinGroup/LeaveGroup here.
 */
import { z } from 'zod';
import type { patchUserBodySchema } from '../src/contract/bodies/iam.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { sameGrants, type PermissionGrants } from '../src/events/permission-grants.js';
import { evolveUser, initialUserState, type UserEvent, type UserProfile, type UserState } from '../src/events/user.js';

export interface UserChanges {
  changes: Partial<UserProfile>;
  isActive?: boolean;
}

export function userChangesFrom(body: z.infer<typeof patchUserBodySchema>): UserChanges {
  const changes: Partial<UserProfile> = {};
  if (body.email !== undefined) changes.email = body.email;
  if (body.name !== undefined) changes.name = body.name;
  if (body.role_id !== undefined) changes.roleId = body.role_id;
  if (body.group_ids !== undefined) changes.groupIds = body.group_ids;
  if (body.phone !== undefined) changes.phone = body.phone;
  return { changes, isActive: body.is_active };
}

/** Read-model lookups of the caller's tenant (built-in roles included). */

export type InvitationOutcome =
  | { sent: true; provider: string; reference: string }
  | { sent: false; provider: string; error: string };

export type UserCommand =
  | { kind: 'CreateUser'; userId: string; profile: UserProfile; isActive: boolean }
  | { kind: 'UpdateUser'; userId: string; changes: Partial<UserProfile>; isActive?: boolean }
  | { kind: 'RemoveUser'; userId: string }
  | { kind: 'JoinGroup'; userId: string; groupId: string }
  | { kind: 'LeaveGroup'; userId: string; groupId: string }
  | { kind: 'SetPermissionOverrides'; userId: string; permissions: PermissionGrants }
  | { kind: 'RecordInvitation'; userId: string; outcome: InvitationOutcome }
  | { kind: 'RecordLogin'; userId: string; tokenIssuedAt: number };

const isPresent = (state: UserState) => state.status === 'active' || state.status === 'inactive';

const sameProfile = (a: UserProfile, b: UserProfile) =>
  a.email === b.email &&
  a.name === b.name &&
  a.roleId === b.roleId &&
  (a.phone ?? null) === (b.phone ?? null) &&
  a.groupIds.length === b.groupIds.length &&
  a.groupIds.every((id, i) => b.groupIds[i] === id);

/** Why an invitation cannot be (re)sent to this user, if it cannot. */
export function assertInvitable(state: UserState): void {
  if (!isPresent(state)) throw rejectNotFound('user');
  if (state.status === 'inactive')
    throw rejectConflict('the user is deactivated; reactivate it (is_active: true) before inviting it again');
}

function updated(
  userId: string,
  state: UserState,
  profile: UserProfile,
  isActive: boolean | undefined,
  actor: string,
): UserEvent[] {
  const events: UserEvent[] = [];
  if (!sameProfile(profile, state.profile!)) events.push({ type: 'UserUpdated', data: { userId, ...profile } });
  if (isActive === false && state.status === 'active') {
    if (actor === userId) throw rejectConflict('you cannot deactivate yourself');
    events.push({ type: 'UserDeactivated', data: { userId } });
  }
  if (isActive === true && state.status === 'inactive') events.push({ type: 'UserReactivated', data: { userId } });
  return events;
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: (command, state, context) => {
    const { userId } = command;
    if (command.kind === 'CreateUser') {
      if (state.status !== 'absent') throw rejectConflict('a user with this id already exists');
      return [{ type: 'UserCreated', data: { userId, ...command.profile, isActive: command.isActive } }];
    }
    if (!isPresent(state)) throw rejectNotFound('user');
    const profile = state.profile!;
    switch (command.kind) {
      case 'UpdateUser':
        return updated(userId, state, { ...profile, ...command.changes }, command.isActive, context.actor);
      case 'RemoveUser': {
        if (context.actor === userId) throw rejectConflict('you cannot delete yourself');
        const deactivation: UserEvent[] =
          state.status === 'active' ? [{ type: 'UserDeactivated', data: { userId } }] : [];
        return [...deactivation, { type: 'UserRemoved', data: { userId } }];
      }
      case 'JoinGroup':
        if (profile.groupIds.includes(command.groupId)) return [];
        return [
          { type: 'UserUpdated', data: { userId, ...profile, groupIds: [...profile.groupIds, command.groupId] } },
        ];
      case 'LeaveGroup':
        if (!profile.groupIds.includes(command.groupId)) throw rejectNotFound('group membership');
        return [
          {
            type: 'UserUpdated',
            data: { userId, ...profile, groupIds: profile.groupIds.filter((id) => id !== command.groupId) },
          },
        ];
      case 'SetPermissionOverrides':
        if (sameGrants(command.permissions, state.overrides)) return [];
        return [{ type: 'UserPermissionOverridesSet', data: { userId, permissions: command.permissions } }];
      case 'RecordInvitation': {
        const { outcome } = command;
        return outcome.sent
          ? [{ type: 'UserInvited', data: { userId, provider: outcome.provider, reference: outcome.reference } }]
          : [{ type: 'UserInvitationFailed', data: { userId, provider: outcome.provider, error: outcome.error } }];
      }
      case 'RecordLogin':
        // One login per issued token: a token at or before the newest recorded one is not new.
        if (state.status !== 'active' || (state.lastLoginTokenIssuedAt ?? -1) >= command.tokenIssuedAt) return [];
        return [
          {
            type: 'UserLoggedIn',
            data: { userId, at: context.now.toISOString(), tokenIssuedAt: command.tokenIssuedAt },
          },
        ];
    }
  },
};
