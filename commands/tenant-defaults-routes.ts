/** PUT /api/v1/tenant/permission-defaults; the decider is commands/tenant-defaults.ts. */
import type { TenantDefaults } from '../src/contract/iam.js';
import Router from '@koa/router';
import { permissionsBodySchema } from '../src/contract/bodies/iam.js';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { tenantStream } from '../src/events/tenant.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import type { AppState } from '../src/http/state.js';
import { tenantDefaultsDecider } from './tenant-defaults.js';

export interface TenantDefaultsCommandDeps extends CommandDeps {
  viewDefaults: (tenantId: string) => Promise<TenantDefaults>;
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
