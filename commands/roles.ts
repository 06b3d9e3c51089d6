/**
 * Custom roles: the decider. Events go to `role-<id>` (src/events/role.ts). The built-in roles
 * (src/auth/built-in-roles.ts) are readable but neither editable nor deletable: a change is 409,
 * since the resource exists and its kind forbids the change. Routes: commands/role-routes.ts.
 */
import { BUILT_IN_ROLES } from '../src/auth/built-in-roles.js';
import { evolveRole, type RoleEvent } from '../src/events/role.js';
import { grantHolderDecider } from './grant-holder.js';

export const roleDecider = grantHolderDecider<RoleEvent>({
  what: 'role',
  inUse: (users) => `the role is held by ${users} user(s); give them another role first`,
  reservedNames: BUILT_IN_ROLES.map((role) => role.id),
  created: (roleId, fields) => ({ type: 'RoleCreated', data: { roleId, ...fields } }),
  updated: (roleId, fields) => ({ type: 'RoleUpdated', data: { roleId, ...fields } }),
  deleted: (roleId) => ({ type: 'RoleDeleted', data: { roleId } }),
  evolve: evolveRole,
});
