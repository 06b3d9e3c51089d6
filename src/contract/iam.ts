/**
 * The identity-and-access answers: users and their names, permission overrides, effective
 * permissions, roles, groups, the caller (`/me`) and the tenant defaults. Written once here: the
 * queries and command routes are typed from them, src/openapi/iam.ts documents them, the console
 * imports their types.
 */
import { z } from 'zod';
import { instant, optionalText, resourceId } from './answer-pieces.js';
import { ALL_PERMISSIONS } from './permissions.js';

/** The permission names (src/contract/permissions.ts). */
export const permissionName = z.enum(ALL_PERMISSIONS);

/** A permission map: permission → allow | deny, any subset of the permissions (an unknown name is a 400). */
export const permissionGrants = z.partialRecord(permissionName, z.enum(['allow', 'deny']));
export type PermissionGrants = z.infer<typeof permissionGrants>;

export const userSchema = z.object({
  id: resourceId,
  email: z.string(),
  phone: optionalText,
  name: z.string(),
  role_id: optionalText,
  group_ids: z.array(z.string()),
  created_at: instant,
  last_login: instant.nullable(),
  is_active: z.boolean(),
  invitation_status: z.enum(['pending', 'sent', 'failed']),
});

export const userNameSchema = z.object({ id: resourceId, name: z.string(), removed: z.boolean() });
export const overridesSchema = z.object({ user_id: resourceId, permissions: permissionGrants });

const permissionDecision = z.object({
  allowed: z.boolean(),
  decided_by: z.enum(['user_override', 'group', 'role', 'tenant_default', 'none']),
  sources: z.array(z.string()).meta({ description: 'ids of the groups or role that decided' }),
});

export const effectiveSchema = z.object({
  user_id: resourceId,
  is_active: z.boolean(),
  allowed: z.array(z.string()),
  permissions: z
    .strictObject(Object.fromEntries(permissionName.options.map((permission) => [permission, permissionDecision])))
    .meta({ description: 'every permission, by name' }),
});

export const roleSchema = z.object({
  id: z.string().meta({ description: 'a UUID, or the name of a built-in role' }),
  name: z.string(),
  description: optionalText,
  permissions: permissionGrants,
  built_in: z.boolean(),
  created_at: instant.nullable(),
  updated_at: instant.nullable(),
});

export const groupSchema = z.object({
  id: resourceId,
  name: z.string(),
  description: optionalText,
  permissions: permissionGrants,
  member_ids: z.array(z.string()),
  created_at: instant,
  updated_at: instant,
});

export const meSchema = z.object({
  principal: z.object({
    kind: z.enum(['user', 'client']).meta({
      description:
        "`client`: no user record in the tenant (the development client, a service client); its role level is the token's roles claim",
    }),
    subject: z.string(),
    user_id: z.string(),
    tenant_id: z.string(),
    env_id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    role_id: z.string().nullable(),
    group_ids: z.array(z.string()),
    token_roles: z.array(z.string()),
  }),
  allowed: z.array(z.string()),
  permissions: effectiveSchema.shape.permissions,
});

export const defaultsSchema = z.object({ permissions: permissionGrants, updated_at: instant.nullable() });

/** GET/PUT /tenant/platform-alerts: where the tenant's own platform causes page (issue 38 §3). */
export const platformAlertsSchema = z.object({
  policy_id: z.string().nullable().meta({
    format: 'uuid',
    description:
      "the escalation policy a delivery to the tenant's recipients failing every attempt pages; null: the deployment's PLATFORM_ALERTS_POLICY_ID",
  }),
  updated_at: instant.nullable(),
});
export type PlatformAlerts = z.infer<typeof platformAlertsSchema>;

export type User = z.infer<typeof userSchema>;
export type UserName = z.infer<typeof userNameSchema>;
export type PermissionOverrides = z.infer<typeof overridesSchema>;
export type UserPermissions = z.infer<typeof effectiveSchema>;
export type PermissionDecision = z.infer<typeof permissionDecision>;
export type DecidingLevel = PermissionDecision['decided_by'];
export type Role = z.infer<typeof roleSchema>;
export type Group = z.infer<typeof groupSchema>;
export type Me = z.infer<typeof meSchema>;
export type TenantDefaults = z.infer<typeof defaultsSchema>;
