import { z } from 'zod';
import { permissionGrantsSchema } from './permission-grants.js';

/** Events of the `tenant-<tenantId>` streams: settings of the tenant as a whole. */
export const tenantEvents = {
  /** The tenant's permission defaults, for users whose role has no opinion (or who have no role). */
  TenantPermissionDefaultsSet: z.object({ permissions: permissionGrantsSchema }),
};

export type TenantEvent = {
  [K in keyof typeof tenantEvents]: { type: K; data: z.infer<(typeof tenantEvents)[K]> };
}[keyof typeof tenantEvents];
