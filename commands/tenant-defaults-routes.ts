/** PUT /api/v1/tenant/permission-defaults and /tenant/platform-alerts; the decider is commands/tenant-defaults.ts. */
import type { PlatformAlerts, TenantDefaults } from '../src/contract/iam.js';
import Router from '@koa/router';
import { permissionsBodySchema } from '../src/contract/bodies/iam.js';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { tenantStream } from '../src/events/tenant.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import type { AppState } from '../src/http/state.js';
import { badRequest } from '../src/http/problem.js';
import { tenantDefaultsDecider } from './tenant-defaults.js';
import { platformAlertsBodySchema } from '../src/contract/bodies/iam.js';

export interface TenantDefaultsCommandDeps extends CommandDeps {
  viewDefaults: (tenantId: string) => Promise<TenantDefaults>;
  viewPlatformAlerts: (tenantId: string) => Promise<PlatformAlerts>;
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
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
  router.put('/tenant/platform-alerts', requires('alerts:write'), async (ctx) => {
    const { policy_id: policyId } = platformAlertsBodySchema.parse(ctx.request.body);
    const tenantId = ctx.state.principal.tenantId;
    if (policyId !== null && !(await deps.policyExists(tenantId, policyId))) {
      const message = 'no escalation policy with this id in the tenant';
      throw badRequest(`policy_id: ${message}`, [{ path: '/policy_id', message }]);
    }
    const outcome = await handleCommand(deps, tenantDefaultsDecider, {
      stream: tenantStream(tenantId),
      resourceName: 'tenant defaults',
      command: { kind: 'SetTenantPlatformAlertsPolicy', policyId },
      envelope: envelopeFrom(ctx),
      expectedRevision: ifMatchRevision(ctx),
    });
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewPlatformAlerts(tenantId));
  });
  return router;
}
