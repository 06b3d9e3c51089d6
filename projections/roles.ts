import type { Projection } from '../src/projection-runner/projection.js';
import { applyGrantHolderEvent, type GrantHolderDoc } from './grant-holder-docs.js';

/** Read model `roles`: one document per live custom role (the built-in roles are not stored). */
export type RoleDoc = GrantHolderDoc;

export const ROLES = 'roles';

export const rolesProjection: Projection = {
  name: 'roles',
  version: 1,
  handles: ['RoleCreated', 'RoleUpdated', 'RoleDeleted'],
  collections: {
    [ROLES]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      { name: 'tenant_name', fields: ['tenantId', 'name'] },
    ],
  },
  apply: (event, writer) =>
    applyGrantHolderEvent(
      ROLES,
      { created: 'RoleCreated', updated: 'RoleUpdated', deleted: 'RoleDeleted', idField: 'roleId' },
      event,
      writer,
    ),
};
