import type { PermissionGrants } from '../src/events/permission-grants.js';
import type { Projection } from '../src/projection-runner/projection.js';

/**
 * Read model `tenantPermissionDefaults`: one document per tenant that has set its defaults or its
 * platform-alerts policy (id = tenant id); `revision` is the tenant stream's (the ETag of both).
 */
export interface TenantDefaultsDoc {
  id: string;
  tenantId: string;
  permissions: PermissionGrants;
  /** The policy the tenant's own platform causes page; absent or null: the deployment's. */
  platformAlertsPolicyId?: string | null;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const TENANT_PERMISSION_DEFAULTS = 'tenantPermissionDefaults';

export const tenantDefaultsProjection: Projection = {
  name: 'tenantPermissionDefaults',
  // Version 2: the tenant's platform-alerts policy, and the revision of any tenant event (one stream, one ETag).
  version: 2,
  handles: ['TenantPermissionDefaultsSet', 'TenantPlatformAlertsPolicySet'],
  collections: { [TENANT_PERMISSION_DEFAULTS]: [] },
  async apply(event, writer) {
    const tenantId = event.metadata.tenantId;
    const current = await writer.get<TenantDefaultsDoc>(TENANT_PERMISSION_DEFAULTS, tenantId);
    const data = event.data as { permissions?: PermissionGrants; policyId?: string | null };
    await writer.upsert(TENANT_PERMISSION_DEFAULTS, {
      id: tenantId,
      tenantId,
      permissions:
        event.type === 'TenantPermissionDefaultsSet' ? (data.permissions ?? {}) : (current?.permissions ?? {}),
      platformAlertsPolicyId:
        event.type === 'TenantPlatformAlertsPolicySet'
          ? (data.policyId ?? null)
          : (current?.platformAlertsPolicyId ?? null),
      updatedAt: event.metadata.occurredAt,
      revision: Number(event.revision),
    } satisfies TenantDefaultsDoc);
  },
};
