import type { PermissionGrants } from '../src/events/permission-grants.js';
import type { Projection } from '../src/projection-runner/projection.js';

/** Read model `tenantPermissionDefaults`: one document per tenant that has set its defaults (id = tenant id). */
export interface TenantDefaultsDoc {
  id: string;
  tenantId: string;
  permissions: PermissionGrants;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const TENANT_PERMISSION_DEFAULTS = 'tenantPermissionDefaults';

export const tenantDefaultsProjection: Projection = {
  name: 'tenantPermissionDefaults',
  version: 1,
  handles: ['TenantPermissionDefaultsSet'],
  collections: { [TENANT_PERMISSION_DEFAULTS]: [] },
  async apply(event, writer) {
    const tenantId = event.metadata.tenantId;
    await writer.upsert(TENANT_PERMISSION_DEFAULTS, {
      id: tenantId,
      tenantId,
      permissions: (event.data as { permissions: PermissionGrants }).permissions,
      updatedAt: event.metadata.occurredAt,
      revision: Number(event.revision),
    } satisfies TenantDefaultsDoc);
  },
};
