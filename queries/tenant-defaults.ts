import type { PlatformAlerts, TenantDefaults } from '../src/contract/iam.js';
import Router from '@koa/router';
import type { TenantDefaultsDoc } from '../projections/tenant-defaults.js';
import { tenantDefaults } from '../src/auth/iam-lookups.js';
import type { PermissionGrants } from '../src/events/permission-grants.js';
import { etagOf } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const tenantDefaultsView = (doc: TenantDefaultsDoc | null): TenantDefaults => ({
  permissions: (doc?.permissions ?? {}) as PermissionGrants,
  updated_at: doc?.updatedAt ?? null,
});

export const platformAlertsView = (doc: TenantDefaultsDoc | null): PlatformAlerts => ({
  policy_id: doc?.platformAlertsPolicyId ?? null,
  updated_at: doc?.updatedAt ?? null,
});

export function tenantDefaultsQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();
  router.get('/tenant/permission-defaults', requires('iam:read'), queryParameters([]), async (ctx) => {
    const doc = await tenantDefaults(deps.reader, ctx.state.principal.tenantId);
    if (doc) ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, tenantDefaultsView(doc));
  });
  router.get('/tenant/platform-alerts', requires('alerts:read'), queryParameters([]), async (ctx) => {
    const doc = await tenantDefaults(deps.reader, ctx.state.principal.tenantId);
    if (doc) ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, platformAlertsView(doc));
  });
  return router;
}
