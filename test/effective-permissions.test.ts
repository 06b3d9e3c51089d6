import test from 'ava';
import { BUILT_IN_ROLES, builtInRole } from '../src/auth/built-in-roles.js';
import {
  allowedPermissions,
  decidePermission,
  effectivePermissions,
  type PermissionLevels,
} from '../src/auth/effective-permissions.js';
import { ALL_PERMISSIONS, type Permission } from '../src/access/permissions.js';

const none: PermissionLevels = { overrides: {}, groups: [], roles: [], tenantDefaults: {} };
const levels = (partial: Partial<PermissionLevels>): PermissionLevels => ({ ...none, ...partial });
const role = (id: string, permissions: Record<string, 'allow' | 'deny'>) => ({ id, permissions });
const group = role;

type Case = [
  title: string,
  levels: PermissionLevels,
  expected: { allowed: boolean; decidedBy: string; sources?: string[] },
];

const P: Permission = 'iam:write';
const cases: Case[] = [
  ['no opinion anywhere is deny', none, { allowed: false, decidedBy: 'none' }],
  [
    'tenant default allow applies when nothing else speaks',
    levels({ tenantDefaults: { [P]: 'allow' } }),
    { allowed: true, decidedBy: 'tenant_default' },
  ],
  [
    'tenant default deny applies when nothing else speaks',
    levels({ tenantDefaults: { [P]: 'deny' } }),
    { allowed: false, decidedBy: 'tenant_default' },
  ],
  [
    'the role beats the tenant default',
    levels({ roles: [role('r', { [P]: 'deny' })], tenantDefaults: { [P]: 'allow' } }),
    { allowed: false, decidedBy: 'role', sources: ['r'] },
  ],
  [
    'a role without an opinion falls through to the defaults',
    levels({ roles: [role('r', { 'iam:read': 'allow' })], tenantDefaults: { [P]: 'allow' } }),
    { allowed: true, decidedBy: 'tenant_default' },
  ],
  [
    'groups beat the role',
    levels({ groups: [group('g', { [P]: 'allow' })], roles: [role('r', { [P]: 'deny' })] }),
    { allowed: true, decidedBy: 'group', sources: ['g'] },
  ],
  [
    'a group deny beats a role allow',
    levels({ groups: [group('g', { [P]: 'deny' })], roles: [role('r', { [P]: 'allow' })] }),
    { allowed: false, decidedBy: 'group', sources: ['g'] },
  ],
  [
    'any allowing group wins over denying groups',
    levels({ groups: [group('g1', { [P]: 'deny' }), group('g2', { [P]: 'allow' }), group('g3', { [P]: 'deny' })] }),
    { allowed: true, decidedBy: 'group', sources: ['g2'] },
  ],
  [
    'groups that all deny deny, and are all named',
    levels({
      groups: [group('g1', { [P]: 'deny' }), group('g2', {}), group('g3', { [P]: 'deny' })],
      roles: [role('r', { [P]: 'allow' })],
    }),
    { allowed: false, decidedBy: 'group', sources: ['g1', 'g3'] },
  ],
  [
    'groups without an opinion fall through to the role',
    levels({ groups: [group('g', { 'iam:read': 'deny' })], roles: [role('r', { [P]: 'allow' })] }),
    { allowed: true, decidedBy: 'role', sources: ['r'] },
  ],
  [
    'an override allow beats a group deny',
    levels({ overrides: { [P]: 'allow' }, groups: [group('g', { [P]: 'deny' })] }),
    { allowed: true, decidedBy: 'user_override' },
  ],
  [
    'an override deny beats everything that allows',
    levels({
      overrides: { [P]: 'deny' },
      groups: [group('g', { [P]: 'allow' })],
      roles: [role('owner', { [P]: 'allow' })],
      tenantDefaults: { [P]: 'allow' },
    }),
    { allowed: false, decidedBy: 'user_override' },
  ],
  [
    'several token roles: any allow wins',
    levels({ roles: [role('viewer', { [P]: 'deny' }), role('custom', { [P]: 'allow' })] }),
    { allowed: true, decidedBy: 'role', sources: ['custom'] },
  ],
  [
    'an override on another permission does not speak for this one',
    levels({ overrides: { 'iam:read': 'allow' }, roles: [role('r', { [P]: 'deny' })] }),
    { allowed: false, decidedBy: 'role', sources: ['r'] },
  ],
];

for (const [title, input, expected] of cases) {
  test(title, (t) => {
    t.deepEqual(decidePermission(input, P), { sources: [], ...expected });
  });
}

const builtIns: [string, Permission[]][] = [
  ['owner', [...ALL_PERMISSIONS]],
  ['admin', ALL_PERMISSIONS.filter((p) => p !== 'iam:admin')],
  [
    'responder',
    [
      ...ALL_PERMISSIONS.filter((p) => p.endsWith(':read')),
      'alerts:write',
      'incidents:write',
      'escalation:write',
      'schedules:write',
      'channels:write',
      'integrations:write',
      'sync:write',
      'assistant:ask',
    ],
  ],
  ['viewer', ALL_PERMISSIONS.filter((p) => p.endsWith(':read'))],
];

for (const [id, expected] of builtIns) {
  test(`built-in role ${id} allows exactly its permissions and denies the rest explicitly`, (t) => {
    const builtIn = builtInRole(id)!;
    const effective = effectivePermissions(
      levels({ roles: [builtIn], tenantDefaults: Object.fromEntries(ALL_PERMISSIONS.map((p) => [p, 'allow'])) }),
    );
    t.deepEqual(allowedPermissions(effective).sort(), [...expected].sort());
    for (const permission of ALL_PERMISSIONS)
      t.is(effective[permission].decidedBy, 'role', `${permission} is decided by the role, not the defaults`);
  });
}

test('the built-in roles are owner, admin, responder and viewer, with ids equal to their names', (t) => {
  t.deepEqual(
    BUILT_IN_ROLES.map((r) => [r.id, r.name]),
    [
      ['owner', 'owner'],
      ['admin', 'admin'],
      ['responder', 'responder'],
      ['viewer', 'viewer'],
    ],
  );
});

test('unknown permission names in stored grants are ignored', (t) => {
  const effective = effectivePermissions(levels({ overrides: { 'retired:permission': 'allow' } }));
  t.deepEqual(allowedPermissions(effective), []);
});
