import type { Projection } from '../src/projection-runner/projection.js';
import type { ReadModelWriter } from '../src/readstore/port.js';
import { applyGrantHolderEvent, type GrantHolderDoc } from './grant-holder-docs.js';

/**
 * Read model `groups`: one document per live group. `memberIds` mirrors the members' `groupIds`
 * (membership is recorded on the user streams), so "who is in this group" is one read.
 */
export interface GroupDoc extends GrantHolderDoc {
  memberIds: string[];
}

export const GROUPS = 'groups';

/** Makes `userId` a member of exactly the groups in `groupIds` (of its tenant). */
async function syncMembership(writer: ReadModelWriter, tenantId: string, userId: string, groupIds: string[]) {
  const current = await writer.find<GroupDoc>(GROUPS, { tenantId, memberIds: { $contains: userId } });
  for (const group of current) {
    if (!groupIds.includes(group.id))
      await writer.patch(GROUPS, group.id, { memberIds: group.memberIds.filter((m) => m !== userId) });
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
    const tenantId = event.metadata.tenantId;
    const data = event.data as { userId: string; groupIds: string[] };
    switch (event.type) {
      case 'UserCreated':
      case 'UserUpdated':
        await syncMembership(writer, tenantId, data.userId, data.groupIds);
        break;
      case 'UserRemoved':
        await syncMembership(writer, tenantId, data.userId, []);
        break;
      default:
        await applyGrantHolderEvent(
          GROUPS,
          { created: 'GroupCreated', updated: 'GroupUpdated', deleted: 'GroupDeleted', idField: 'groupId' },
          event,
          writer,
          { memberIds: [] },
        );
    }
  },
};
