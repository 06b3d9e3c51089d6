import type { PermissionGrants } from '../src/events/permission-grants.js';
import type { Projection } from '../src/projection/projection.js';
import type { ReadModelWriter } from '../src/readstore/port.js';

/**
 * Read model `groups`: one document per live group. `memberIds` mirrors the members' `groupIds`
 * (membership is recorded on the user streams), so "who is in this group" is one read.
 */
export interface GroupDoc {
  id: string;
  tenantId: string;
  name: string;
  description: string;
  permissions: PermissionGrants;
  memberIds: string[];
  createdAt: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const GROUPS = 'groups';

/** Makes `userId` a member of exactly the groups in `groupIds` (of its tenant). */
async function syncMembership(writer: ReadModelWriter, tenantId: string, userId: string, groupIds: string[]) {
  const current = await writer.find<GroupDoc>(GROUPS, { tenantId, memberIds: { $contains: userId } });
  for (const group of current) {
    if (!groupIds.includes(group.id)) await writer.patch(GROUPS, group.id, { memberIds: group.memberIds.filter((m) => m !== userId) });
  }
  for (const groupId of groupIds) {
    const group = await writer.get<GroupDoc>(GROUPS, groupId);
    if (group && group.tenantId === tenantId && !group.memberIds.includes(userId)) {
      await writer.patch(GROUPS, groupId, { memberIds: [...group.memberIds, userId] });
    }
  }
}

export const groupsProjection: Projection = {
  name: 'groups',
  version: 1,
  handles: ['GroupCreated', 'GroupUpdated', 'GroupDeleted', 'UserCreated', 'UserUpdated', 'UserRemoved'],
  collections: { [GROUPS]: [{ name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] }] },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    const tenantId = event.metadata.tenantId;
    const data = event.data as { groupId: string; userId: string; name: string; description: string; permissions: PermissionGrants; groupIds: string[] };
    switch (event.type) {
      case 'GroupCreated':
        await writer.upsert(GROUPS, {
          id: data.groupId, tenantId, name: data.name, description: data.description, permissions: data.permissions,
          memberIds: [], createdAt: at, updatedAt: at, revision: Number(event.revision),
        } satisfies GroupDoc);
        break;
      case 'GroupUpdated':
        await writer.patch(GROUPS, data.groupId, {
          name: data.name, description: data.description, permissions: data.permissions, updatedAt: at, revision: Number(event.revision),
        });
        break;
      case 'GroupDeleted':
        await writer.delete(GROUPS, data.groupId);
        break;
      case 'UserCreated':
      case 'UserUpdated':
        await syncMembership(writer, tenantId, data.userId, data.groupIds);
        break;
      case 'UserRemoved':
        await syncMembership(writer, tenantId, data.userId, []);
        break;
    }
  },
};
