/** Identity and access: users, permission overrides, roles, groups, tenant defaults (commands/*-routes.ts, queries/users.ts, roles.ts, …). */
import { z } from 'zod';
import { grantHolderBodySchema } from '../contract/bodies/iam.js';
import { createUserBodySchema, patchUserBodySchema } from '../contract/bodies/iam.js';
import { permissionsBodySchema, platformAlertsBodySchema } from '../contract/bodies/iam.js';
import type { OperationDoc } from './operation.js';
import {
  defaultsSchema,
  effectiveSchema,
  groupSchema,
  meSchema,
  overridesSchema,
  permissionGrants,
  platformAlertsSchema,
  roleSchema,
  userNameSchema,
  userSchema,
} from '../contract/iam.js';
import { deletedSchema } from './shared-schemas.js';

/** The bodies as the routes parse them, with the permission map shown by name (the route's schema checks names in a transform). */
const permissionsBody = permissionsBodySchema.extend({ permissions: permissionGrants });
const grantHolderBody = grantHolderBodySchema.extend({ permissions: permissionGrants });
const userPatchBody = patchUserBodySchema.meta({ minProperties: 1, description: 'at least one field' });

const users = 'Users';
const roles = 'Roles and groups';
// Membership changes are written to the user's stream, so they carry no ETag of the group.
const envelope = (
  data: z.ZodType,
  description: string,
  extra: { status?: 200 | 201; etag?: boolean; list?: boolean } = {},
) =>
  ({
    kind: 'envelope',
    status: extra.status ?? 200,
    description,
    data,
    etag: extra.etag,
    list: extra.list,
    location: extra.status === 201,
  }) as const;
const userQuery = {
  is_active: z.enum(['true', 'false']),
  email: z.string().meta({ description: 'exact address, any case' }),
  group_id: z.string().meta({ description: 'members of this group' }),
};

export const iamOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/users',
    tag: users,
    summary: 'List users',
    description: 'Newest first.',
    query: userQuery,
    response: envelope(userSchema, 'A page of users', { list: true }),
  },
  {
    method: 'post',
    path: '/users',
    tag: users,
    summary: 'Create a user and send the invitation',
    body: createUserBodySchema,
    problems: { 409: 'The email address is taken in the tenant' },
    response: envelope(userSchema, 'The user', { status: 201, etag: true }),
  },
  {
    method: 'get',
    path: '/users/:id',
    tag: users,
    summary: 'Get a user',
    response: envelope(userSchema, 'The user', { etag: true }),
  },
  {
    method: 'put',
    path: '/users/:id',
    tag: users,
    summary: 'Change some or all fields of a user',
    body: patchUserBodySchema,
    ifMatch: true,
    response: envelope(userSchema, 'The user', { etag: true }),
  },
  {
    method: 'patch',
    path: '/users/:id',
    tag: users,
    summary: 'Change some fields of a user',
    body: userPatchBody,
    ifMatch: true,
    response: envelope(userSchema, 'The user', { etag: true }),
  },
  {
    method: 'delete',
    path: '/users/:id',
    tag: users,
    summary: 'Deactivate a user and remove them from the tenant',
    ifMatch: true,
    response: envelope(deletedSchema, 'Removed', { etag: true }),
  },
  {
    method: 'post',
    path: '/users/:id/invite',
    tag: users,
    summary: '(Re)send the invitation',
    problems: {
      409: 'The user is deactivated',
      503: 'The identity provider refused or failed again (`invitation_status: failed`)',
    },
    response: envelope(userSchema, 'The user', { etag: true }),
  },
  {
    method: 'get',
    path: '/me',
    tag: users,
    summary: 'Who the token speaks for and what it may do',
    description: 'Any valid token may ask; the permissions are the ones the route guards use.',
    response: envelope(meSchema, 'The principal and its effective permissions'),
  },
  {
    method: 'get',
    path: '/user-names',
    tag: users,
    summary: "The display names of the tenant's users",
    description:
      'Any valid token may ask: names only (no email, phone or role), so pages can show who acted without iam:read. Removed users are included, flagged.',
    response: envelope(z.array(userNameSchema), 'Every user of the tenant, oldest first'),
  },
  {
    method: 'get',
    path: '/users/:id/permissions',
    tag: users,
    summary: "A user's effective permissions and what decided each",
    response: envelope(effectiveSchema, 'The effective permissions'),
  },
  {
    method: 'get',
    path: '/users/:id/permission-overrides',
    tag: users,
    summary: "A user's permission overrides",
    response: envelope(overridesSchema, 'The overrides'),
  },
  {
    method: 'put',
    path: '/users/:id/permission-overrides',
    tag: users,
    summary: "Replace a user's permission overrides (`{}` clears)",
    body: permissionsBody,
    ifMatch: true,
    response: envelope(overridesSchema, 'The overrides'),
  },
  {
    method: 'delete',
    path: '/users/:id/permission-overrides',
    tag: users,
    summary: "Clear a user's permission overrides",
    ifMatch: true,
    response: envelope(overridesSchema, 'The (empty) overrides'),
  },

  {
    method: 'get',
    path: '/roles',
    tag: roles,
    summary: 'List roles',
    description: 'Built-in roles first, then custom roles oldest first.',
    response: envelope(roleSchema, 'A page of roles', { list: true }),
  },
  {
    method: 'post',
    path: '/roles',
    tag: roles,
    summary: 'Create a custom role',
    body: grantHolderBody,
    problems: { 409: 'The name is taken' },
    response: envelope(roleSchema, 'The role', { status: 201, etag: true }),
  },
  {
    method: 'get',
    path: '/roles/:id',
    tag: roles,
    summary: 'Get a role (built-in ones have no ETag)',
    response: envelope(roleSchema, 'The role', { etag: true }),
  },
  {
    method: 'put',
    path: '/roles/:id',
    tag: roles,
    summary: 'Replace a custom role',
    body: grantHolderBody,
    ifMatch: true,
    response: envelope(roleSchema, 'The role', { etag: true }),
  },
  {
    method: 'delete',
    path: '/roles/:id',
    tag: roles,
    summary: 'Delete a custom role',
    ifMatch: true,
    problems: { 409: 'Stale If-Match, a built-in role, or users still hold the role' },
    response: envelope(deletedSchema, 'Deleted'),
  },

  {
    method: 'get',
    path: '/groups',
    tag: roles,
    summary: 'List groups',
    description: 'Oldest first.',
    response: envelope(groupSchema, 'A page of groups', { list: true }),
  },
  {
    method: 'post',
    path: '/groups',
    tag: roles,
    summary: 'Create a group',
    body: grantHolderBody,
    problems: { 409: 'The name is taken' },
    response: envelope(groupSchema, 'The group', { status: 201, etag: true }),
  },
  {
    method: 'get',
    path: '/groups/:id',
    tag: roles,
    summary: 'Get a group',
    response: envelope(groupSchema, 'The group', { etag: true }),
  },
  {
    method: 'put',
    path: '/groups/:id',
    tag: roles,
    summary: 'Replace a group',
    body: grantHolderBody,
    ifMatch: true,
    response: envelope(groupSchema, 'The group', { etag: true }),
  },
  {
    method: 'delete',
    path: '/groups/:id',
    tag: roles,
    summary: 'Delete a group',
    ifMatch: true,
    problems: { 409: 'Stale If-Match, or the group has members' },
    response: envelope(deletedSchema, 'Deleted'),
  },
  {
    method: 'put',
    path: '/groups/:id/members/:user_id',
    tag: roles,
    summary: 'Add a user to a group',
    response: envelope(groupSchema, 'The group', { etag: false }),
  },
  {
    method: 'delete',
    path: '/groups/:id/members/:user_id',
    tag: roles,
    summary: 'Remove a user from a group',
    response: envelope(groupSchema, 'The group', { etag: false }),
  },

  {
    method: 'get',
    path: '/tenant/permission-defaults',
    tag: roles,
    summary: "The tenant's default permissions",
    response: envelope(defaultsSchema, 'The defaults', { etag: true }),
  },
  {
    method: 'put',
    path: '/tenant/permission-defaults',
    tag: roles,
    summary: "Replace the tenant's default permissions",
    body: permissionsBody,
    ifMatch: true,
    response: envelope(defaultsSchema, 'The defaults', { etag: true }),
  },
  {
    method: 'get',
    path: '/tenant/platform-alerts',
    tag: 'Incidents',
    summary: "The policy the tenant's own platform causes page",
    response: envelope(platformAlertsSchema, 'The setting', { etag: true }),
  },
  {
    method: 'put',
    path: '/tenant/platform-alerts',
    tag: 'Incidents',
    summary: "Set the policy the tenant's own platform causes page",
    description:
      "A delivery to one of the tenant's recipients whose every attempt failed opens a `platform` incident on this " +
      "policy (null: on the deployment's PLATFORM_ALERTS_POLICY_ID, in that policy's tenant).",
    body: platformAlertsBodySchema,
    ifMatch: true,
    problems: { 400: 'No escalation policy with this id in the tenant' },
    response: envelope(platformAlertsSchema, 'The setting', { etag: true }),
  },
];
