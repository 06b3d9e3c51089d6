/**
 * Tenant permission defaults: the decider and PUT /api/v1/tenant/permission-defaults. Events go to
 * `tenant-<tenantId>`. They decide for a user only where neither overrides, groups nor role
 * have an opinion (in practice: users without a role, or with a custom role that leaves gaps).
 */
import Router from '@koa/router';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import type { Decider } from '../src/commanding/decider.js';
import type { PermissionGrants } from '../src/events/permission-grants.js';
import type { TenantEvent } from '../src/events/tenant.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import type { AppState } from '../src/http/state.js';
import { permissionsBodySchema } from './permission-map.js';

export interface TenantDefaultsState {
  permissions: PermissionGrants;
}

export type TenantDefaultsCommand = { kind: 'SetTenantPermissionDefaults'; permissions: PermissionGrants };

const same = (a: PermissionGrants, b: PermissionGrants) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, grant]) => b[name] === grant);

export const tenantDefaultsDecider: Decider<TenantDefaultsState, TenantDefaultsCommand, TenantEvent> = {
  initialState: () => ({ permissions: {} }),
  evolve: (_state, event) => ({ permissions: event.data.permissions }),
  decide: (command, state) =>
    same(command.permissions, state.permissions) ? [] : [{ type: 'TenantPermissionDefaultsSet', data: { permissions: command.permissions } }],
};

export const tenantStream = (tenantId: string) => `tenant-${tenantId}`;

export interface TenantDefaultsCommandDeps extends CommandDeps {
  viewDefaults: (tenantId: string) => Promise<Record<string, unknown>>;
}

export function tenantDefaultsCommandRoutes(deps: TenantDefaultsCommandDeps) {
  const router = new Router<AppState>();
  router.put('/tenant/permission-defaults', requires('iam:admin'), async (ctx) => {
    const { permissions } = permissionsBodySchema.parse(ctx.request.body);
    const outcome = await handleCommand(deps, tenantDefaultsDecider, {
      stream: tenantStream(ctx.state.principal.tenantId),
      resourceName: 'tenant defaults',
      command: { kind: 'SetTenantPermissionDefaults', permissions },
      envelope: envelopeFrom(ctx),
      expectedRevision: ifMatchRevision(ctx),
    });
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewDefaults(ctx.state.principal.tenantId));
  });
  return router;
}
