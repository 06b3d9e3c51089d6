import { z } from 'zod';
import { permissionGrantsSchema, type PermissionGrants } from './permission-grants.js';

/** Events of the `tenant-<tenantId>` streams: settings of the tenant as a whole. */
export const tenantEvents = {
  /** The tenant's permission defaults, for users whose role has no opinion (or who have no role). */
  TenantPermissionDefaultsSet: z.object({ permissions: permissionGrantsSchema }),
};

export type TenantEvent = {
  [K in keyof typeof tenantEvents]: { type: K; data: z.infer<(typeof tenantEvents)[K]> };
}[keyof typeof tenantEvents];

export const tenantStream = (tenantId: string) => `tenant-${tenantId}`;

export interface TenantDefaultsState {
  permissions: PermissionGrants;
}

export const initialTenantDefaultsState = (): TenantDefaultsState => ({ permissions: {} });
export const evolveTenantDefaults = (_state: TenantDefaultsState, event: TenantEvent): TenantDefaultsState => ({
  permissions: event.data.permissions,
});
