import { z } from 'zod';
import { permissionGrantsSchema, type PermissionGrants } from './permission-grants.js';

/** Events of the `tenant-<tenantId>` streams: settings of the tenant as a whole. */
export const tenantEvents = {
  /** The tenant's permission defaults, for users whose role has no opinion (or who have no role). */
  TenantPermissionDefaultsSet: z.object({ permissions: permissionGrantsSchema }),
  /**
   * The escalation policy the tenant's own platform causes page (a delivery to its recipients
   * failing every attempt: src/process/platform-watch.ts); null: the deployment's policy.
   */
  TenantPlatformAlertsPolicySet: z.object({ policyId: z.uuid().nullable() }),
};

export type TenantEvent = {
  [K in keyof typeof tenantEvents]: { type: K; data: z.infer<(typeof tenantEvents)[K]> };
}[keyof typeof tenantEvents];

export const tenantStream = (tenantId: string) => `tenant-${tenantId}`;

export interface TenantDefaultsState {
  permissions: PermissionGrants;
  platformAlertsPolicyId: string | null;
}

export const initialTenantDefaultsState = (): TenantDefaultsState => ({
  permissions: {},
  platformAlertsPolicyId: null,
});
export const evolveTenantDefaults = (state: TenantDefaultsState, event: TenantEvent): TenantDefaultsState => {
  switch (event.type) {
    case 'TenantPermissionDefaultsSet':
      return { ...state, permissions: event.data.permissions };
    case 'TenantPlatformAlertsPolicySet':
      return { ...state, platformAlertsPolicyId: event.data.policyId };
  }
};
