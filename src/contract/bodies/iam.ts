/**
 * What clients send to the identity and access routes: users (create, change), roles and groups,
 * and the permission maps of roles, groups, user overrides and tenant defaults
 * (commands/user-routes.ts, role-routes.ts, group-routes.ts, user-override-routes.ts,
 * tenant-defaults-routes.ts parse with these; the console's calls are typed from them).
 */
import { z } from 'zod';
import { grantHolderNameKey, looksLikeUuid } from '../grant-holder-name-key.js';
import { isPermission } from '../permissions.js';
import { isE164 } from '../phone-number.js';
import { nonEmptyBody } from './non-empty-body.js';

/**
 * The `{ "<permission>": "allow" | "deny" }` maps of roles, groups, user overrides and tenant
 * defaults, as clients send them. Unknown permission names are refused (400, each one listed at
 * its own path) rather than stored, so a typo never silently grants or denies nothing.
 */
export const permissionMapSchema = z.record(z.string(), z.unknown()).transform((map, ctx) => {
  const grants: Record<string, 'allow' | 'deny'> = {};
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

/** Body of a role or a group. A name shaped like a UUID is refused: names and ids are separate namespaces. */
export const grantHolderBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((name) => grantHolderNameKey(name) !== '', 'must contain visible characters')
    .refine((name) => !looksLikeUuid(name), 'must not look like a UUID: names and ids are separate namespaces'),
  description: z.string().trim().max(2000).default(''),
  permissions: permissionMapSchema,
});

const email = z.string().trim().max(254).pipe(z.email());
const name = z.string().trim().min(1).max(200);
/** null: no role, so the tenant defaults apply. */
const roleId = z.string().trim().min(1).max(100).nullable();
const groupIds = z
  .array(z.string().min(1).max(100))
  .max(100)
  .transform((ids) => [...new Set(ids)]);
/** For sms pages: E.164 (+ and up to 15 digits), or null for none. */
const phone = z.string().trim().refine(isE164, 'must be an E.164 number such as +447700900123').nullable();

export const createUserBodySchema = z.strictObject({
  email,
  name,
  role_id: roleId.default(null),
  group_ids: groupIds.default([]),
  is_active: z.boolean().default(true),
  phone: phone.default(null),
});

/**
 * PUT and PATCH: any non-empty subset of the writable fields (SPEC.md: "Update with is_active
 * false"); the fields sent replace, the others keep their value. The whole profile is one such subset.
 */
export const patchUserBodySchema = nonEmptyBody(
  z.strictObject({
    email: email.optional(),
    name: name.optional(),
    role_id: roleId.optional(),
    group_ids: groupIds.optional(),
    is_active: z.boolean().optional(),
    phone: phone.optional(),
  }),
);

/** PUT /api/v1/tenant/platform-alerts: the policy the tenant's own platform causes page (null: the deployment's). */
export const platformAlertsBodySchema = z.strictObject({ policy_id: z.uuid().nullable() });
