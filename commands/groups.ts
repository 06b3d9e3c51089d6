/** Groups: the decider. Events go to `group-<id>` (src/events/group.ts); membership lives on the user. Routes: commands/group-routes.ts. */
import { evolveGroup, type GroupEvent } from '../src/events/group.js';
import { grantHolderDecider } from './grant-holder.js';

export const groupDecider = grantHolderDecider<GroupEvent>({
  what: 'group',
  inUse: (users) => `the group has ${users} member(s); remove them first`,
  created: (groupId, fields) => ({ type: 'GroupCreated', data: { groupId, ...fields } }),
  updated: (groupId, fields) => ({ type: 'GroupUpdated', data: { groupId, ...fields } }),
  deleted: (groupId) => ({ type: 'GroupDeleted', data: { groupId } }),
  evolve: evolveGroup,
});
