import type { PermissionGrants } from '../src/events/permission-grants.js';
import type { Projection } from '../src/projection/projection.js';

/** Read model `roles`: one document per live custom role (the built-in roles are not stored). */
export interface RoleDoc {
  id: string;
  tenantId: string;
  name: string;
  description: string;
  permissions: PermissionGrants;
  createdAt: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

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
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    const data = event.data as { roleId: string; name: string; description: string; permissions: PermissionGrants };
    switch (event.type) {
      case 'RoleCreated':
        await writer.upsert(ROLES, {
          id: data.roleId, tenantId: event.metadata.tenantId, name: data.name, description: data.description,
          permissions: data.permissions, createdAt: at, updatedAt: at, revision: Number(event.revision),
        } satisfies RoleDoc);
        break;
      case 'RoleUpdated':
        await writer.patch(ROLES, data.roleId, {
          name: data.name, description: data.description, permissions: data.permissions, updatedAt: at, revision: Number(event.revision),
        });
        break;
      case 'RoleDeleted':
        await writer.delete(ROLES, data.roleId);
        break;
    }
  },
};
