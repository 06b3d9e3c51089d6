/**
 * Tenant permission defaults: the decider. Events go to `tenant-<tenantId>`. They decide for a user
 * only where neither overrides, groups nor role have an opinion (in practice: users without a
 * role, or with a custom role that leaves gaps). The same stream holds the tenant's platform-alerts
 * policy (issue 38 §3: where its tenant-scoped platform causes page). The routes are commands/tenant-defaults-routes.ts.
 */
import type { Decider } from '../src/commanding/decider.js';
import { sameGrants, type PermissionGrants } from '../src/events/permission-grants.js';
import {
  evolveTenantDefaults,
  initialTenantDefaultsState,
  type TenantDefaultsState,
  type TenantEvent,
} from '../src/events/tenant.js';

export type TenantDefaultsCommand =
  | { kind: 'SetTenantPermissionDefaults'; permissions: PermissionGrants }
  | { kind: 'SetTenantPlatformAlertsPolicy'; policyId: string | null };

export const tenantDefaultsDecider: Decider<TenantDefaultsState, TenantDefaultsCommand, TenantEvent> = {
  initialState: initialTenantDefaultsState,
  evolve: evolveTenantDefaults,
  decide(command, state) {
    if (command.kind === 'SetTenantPlatformAlertsPolicy')
      return command.policyId === state.platformAlertsPolicyId
        ? []
        : [{ type: 'TenantPlatformAlertsPolicySet', data: { policyId: command.policyId } }];
    return sameGrants(command.permissions, state.permissions)
      ? []
      : [{ type: 'TenantPermissionDefaultsSet', data: { permissions: command.permissions } }];
  },
};
