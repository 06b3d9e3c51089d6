import type { PermissionGrants } from '../src/events/permission-grants.js';
import { USER_EVENT_TYPES, type UserEvent } from '../src/events/user.js';
import type { Projection } from '../src/projection-runner/projection.js';

/**
 * Read model `users`: one document per user ever created in a tenant. A removed user stays as a
 * document with `removed: true` (and no groups), so its tokens can still be recognised and refused;
 * queries and on-call resolution skip such documents. The overrides live in
 * `userPermissionOverrides` (they are not part of the User resource).
 */
export interface UserDoc {
  id: string;
  tenantId: string;
  email: string;
  emailLower: string;
  name: string;
  roleId: string | null;
  groupIds: string[];
  isActive: boolean;
  removed: boolean;
  createdAt: string;
  lastLogin: string | null;
  invitationStatus: 'pending' | 'sent' | 'failed';
  revision: number;
  [field: string]: unknown;
}

export interface UserOverridesDoc {
  id: string;
  tenantId: string;
  permissions: PermissionGrants;
  [field: string]: unknown;
}

export const USERS = 'users';
export const USER_PERMISSION_OVERRIDES = 'userPermissionOverrides';

export const usersProjection: Projection = {
  name: 'users',
  version: 1,
  handles: USER_EVENT_TYPES,
  collections: {
    [USERS]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      { name: 'tenant_email', fields: ['tenantId', 'emailLower'] },
      { name: 'tenant_role', fields: ['tenantId', 'roleId'] },
    ],
    [USER_PERMISSION_OVERRIDES]: [],
  },
  async apply(recorded, writer) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    const id = event.data.userId;
    const tenantId = recorded.metadata.tenantId;
    const revision = Number(recorded.revision);
    const patch = (fields: Partial<UserDoc>) => writer.patch(USERS, id, { ...fields, revision });
    switch (event.type) {
      case 'UserCreated': {
        const { userId: _, isActive, ...profile } = event.data;
        const doc: UserDoc = {
          id,
          tenantId,
          ...profile,
          emailLower: profile.email.toLowerCase(),
          isActive,
          removed: false,
          createdAt: recorded.metadata.occurredAt,
          lastLogin: null,
          invitationStatus: 'pending',
          revision,
        };
        await writer.upsert(USERS, doc);
        break;
      }
      case 'UserUpdated': {
        const { userId: _, ...profile } = event.data;
        await patch({ ...profile, emailLower: profile.email.toLowerCase() });
        break;
      }
      case 'UserDeactivated':
        await patch({ isActive: false });
        break;
      case 'UserReactivated':
        await patch({ isActive: true });
        break;
      case 'UserRemoved':
        await patch({ isActive: false, removed: true, groupIds: [] });
        await writer.delete(USER_PERMISSION_OVERRIDES, id);
        break;
      case 'UserInvited':
        await patch({ invitationStatus: 'sent' });
        break;
      case 'UserInvitationFailed':
        await patch({ invitationStatus: 'failed' });
        break;
      case 'UserLoggedIn':
        await patch({ lastLogin: event.data.at });
        break;
      case 'UserPermissionOverridesSet':
        await patch({});
        await writer.upsert(USER_PERMISSION_OVERRIDES, {
          id,
          tenantId,
          permissions: event.data.permissions,
        } satisfies UserOverridesDoc);
        break;
    }
  },
};
