/**
 * The `{ "<permission>": "allow" | "deny" }` maps of roles, groups, user overrides and tenant
 * defaults, as clients send them. Unknown permission names are refused (400, each one listed at
 * its own path) rather than stored, so a typo never silently grants or denies nothing.
 */
import { z } from 'zod';
import { isPermission } from '../access/permissions.js';
import type { PermissionGrants } from '../events/permission-grants.js';

export const permissionMapSchema = z.record(z.string(), z.unknown()).transform((map, ctx) => {
  const grants: PermissionGrants = {};
  for (const [name, grant] of Object.entries(map)) {
    if (!isPermission(name)) {
      ctx.addIssue({ code: 'custom', path: [name], message: `unknown permission ${name}` });
    } else if (grant !== 'allow' && grant !== 'deny') {
      ctx.addIssue({ code: 'custom', path: [name], message: 'must be "allow" or "deny"' });
    } else {
      grants[name] = grant;
    }
  }
  return grants;
});

/** Body of user overrides and tenant defaults. */
export const permissionsBodySchema = z.strictObject({ permissions: permissionMapSchema });
