/**
 * The permission table: every permission the platform knows, and what it guards.
 * The README renders this table; route code names permissions only through `Permission`.
 */
export const PERMISSIONS = {
  'iam:read': 'Read users, roles, groups, effective permissions and tenant defaults',
  'iam:write': 'Create and update users; retry invitations',
  'iam:admin': 'Delete users; change roles, groups, permission overrides and tenant defaults',
  'alerts:read': 'Read alert rules and their evaluation history',
  'alerts:write': 'Create, update, enable/disable and delete alert rules',
  'incidents:read': 'List and read incidents; follow the live incident feed',
  'incidents:write': 'Acknowledge, resolve and annotate incidents',
  'escalation:read': 'Read escalation policies',
  'escalation:write': 'Create, replace and delete escalation policies',
  'schedules:read': 'Read on-call schedules and who is on call',
  'schedules:write': 'Create, update and delete on-call schedules',
  'channels:read': 'Read notification channels (secrets masked)',
  'channels:write': 'Create, update, delete and test notification channels',
  'integrations:read': 'Read integrations (routing keys masked) and the change events they received',
  'integrations:write': 'Create, update and delete integrations; rotate and revoke their routing keys',
  'sync:read': 'Read sync status, jobs and history; follow the sync stream',
  'sync:write': 'Trigger, pause and resume sync jobs; purge history',
  'warehouse:read': 'Read the live warehouse health endpoints',
  'assistant:ask': 'Ask the analytics assistant',
  'audit:read': 'Read raw event histories and point-in-time views',
  'simulator:write': 'Steer the simulated warehouse (pin metrics, pause the cluster)',
  'analytics:read':
    "Read incident analytics and on-call health (JSON or CSV); people's emails in it also need `iam:read`",
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export const isPermission = (value: string): value is Permission => value in PERMISSIONS;
