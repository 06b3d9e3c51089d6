/**
 * The roles every tenant has, whose ids are their names. They are defined here, not in the event
 * log, so they need no per-tenant setup and cannot be edited or deleted. Each one takes a stance on
 * every permission (allow or deny), so tenant defaults never override a built-in role: defaults are
 * for users without a role, or whose custom role leaves a permission open.
 */
import type { PermissionGrants } from '../events/permission-grants.js';
import { ALL_PERMISSIONS, type Permission } from '../access/permissions.js';

export interface BuiltInRole {
  id: string;
  name: string;
  description: string;
  permissions: PermissionGrants;
}

const RESPONDER_WRITES: Permission[] = [
  'alerts:write',
  'incidents:write',
  'schedules:write',
  'escalation:write',
  'channels:write',
  'integrations:write',
  'sync:write',
  'assistant:ask',
];

const isRead = (permission: Permission) => permission.endsWith(':read');

const grantsWhere = (allowed: (permission: Permission) => boolean): PermissionGrants =>
  Object.fromEntries(ALL_PERMISSIONS.map((permission) => [permission, allowed(permission) ? 'allow' : 'deny']));

export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  {
    id: 'owner',
    name: 'owner',
    description: 'Everything, including IAM administration',
    permissions: grantsWhere(() => true),
  },
  {
    id: 'admin',
    name: 'admin',
    description: 'Everything but iam:admin',
    permissions: grantsWhere((p) => p !== 'iam:admin'),
  },
  {
    id: 'responder',
    name: 'responder',
    description:
      'Reads everything; works alerts, incidents, schedules, escalation, channels, integrations and sync; asks the assistant',
    permissions: grantsWhere((p) => isRead(p) || RESPONDER_WRITES.includes(p)),
  },
  { id: 'viewer', name: 'viewer', description: 'Reads everything', permissions: grantsWhere(isRead) },
];

export function builtInRole(id: string): BuiltInRole | undefined {
  return BUILT_IN_ROLES.find((role) => role.id === id);
}

export const isBuiltInRoleId = (id: string) => builtInRole(id) !== undefined;
