import test from 'ava';
import { ALL_PERMISSIONS, type Permission } from '../src/access/permissions.js';
import {
  changeCheckedAgainstTarget,
  decideUserChange,
  protectedChanges,
  type UserChangeFacts,
} from '../src/auth/user-change-rule.js';
import type { UserProfile } from '../src/events/user.js';

const OWNER = ALL_PERMISSIONS;
const READS = ALL_PERMISSIONS.filter((p) => p.endsWith(':read'));
const IAM_WRITER: Permission[] = ['iam:read', 'iam:write'];
const facts = (over: Partial<UserChangeFacts> & { actor: readonly Permission[] }): UserChangeFacts => ({
  self: false,
  targetBefore: [],
  targetAfter: [],
  protectedChanges: [],
  ...over,
  actorHolds: new Set(over.actor),
});

const cases: [string, Parameters<typeof facts>[0], boolean | RegExp][] = [
  [
    'iam:write changes the email of an owner',
    { actor: IAM_WRITER, targetBefore: OWNER, targetAfter: OWNER, protectedChanges: ['email'] },
    /changing email of a user who holds permissions you do not hold \(.*iam:admin.*\) needs iam:admin/,
  ],
  [
    'iam:write invites an owner',
    { actor: IAM_WRITER, targetBefore: OWNER, targetAfter: OWNER, protectedChanges: ['invitation'] },
    /changing invitation/,
  ],
  [
    'iam:write sets an owner to viewer',
    { actor: IAM_WRITER, targetBefore: OWNER, targetAfter: READS, protectedChanges: ['role_id'] },
    /role_id/,
  ],
  [
    'iam:write deactivates an owner',
    { actor: IAM_WRITER, targetBefore: OWNER, targetAfter: OWNER, protectedChanges: ['is_active'] },
    /is_active/,
  ],
  [
    'iam:write changes the phone of an owner',
    { actor: IAM_WRITER, targetBefore: OWNER, targetAfter: OWNER, protectedChanges: ['phone'] },
    /phone/,
  ],
  [
    'iam:write changes the groups of a viewer (reads it lacks)',
    { actor: IAM_WRITER, targetBefore: READS, targetAfter: READS, protectedChanges: ['group_ids'] },
    /sync:read/,
  ],
  [
    'iam:write renames an owner (name grants nothing)',
    { actor: IAM_WRITER, targetBefore: OWNER, targetAfter: OWNER, protectedChanges: [] },
    true,
  ],
  [
    'iam:write changes the email of a peer holding no more than it',
    { actor: IAM_WRITER, targetBefore: IAM_WRITER, targetAfter: IAM_WRITER, protectedChanges: ['email', 'phone'] },
    true,
  ],
  [
    'iam:write invites a user holding nothing',
    { actor: IAM_WRITER, targetBefore: [], targetAfter: [], protectedChanges: ['invitation'] },
    true,
  ],
  [
    'a user changes its own email and phone',
    {
      actor: IAM_WRITER,
      self: true,
      targetBefore: IAM_WRITER,
      targetAfter: IAM_WRITER,
      protectedChanges: ['email', 'phone'],
    },
    true,
  ],
  [
    'iam:admin changes anything of an owner',
    { actor: OWNER, targetBefore: OWNER, targetAfter: [], protectedChanges: ['email', 'role_id', 'is_active'] },
    true,
  ],
  [
    'iam:admin alone (no other permission) still decides',
    { actor: ['iam:admin'], targetBefore: OWNER, targetAfter: OWNER, protectedChanges: ['email'] },
    true,
  ],
  [
    'an admin-role holder (all but iam:admin) changes an owner',
    {
      actor: OWNER.filter((p) => p !== 'iam:admin'),
      targetBefore: OWNER,
      targetAfter: OWNER,
      protectedChanges: ['email'],
    },
    /\(iam:admin\)/,
  ],
  [
    'an admin-role holder changes the email of an admin-role holder',
    {
      actor: OWNER.filter((p) => p !== 'iam:admin'),
      targetBefore: OWNER.filter((p) => p !== 'iam:admin'),
      targetAfter: OWNER.filter((p) => p !== 'iam:admin'),
      protectedChanges: ['email'],
    },
    true,
  ],
  // Item 4: whatever the change adds is a grant.
  [
    'leaving a group that denied alerts:write (itself)',
    {
      actor: IAM_WRITER,
      self: true,
      targetBefore: IAM_WRITER,
      targetAfter: [...IAM_WRITER, 'alerts:write'],
      protectedChanges: ['group_ids'],
    },
    /would grant permissions you do not hold \(alerts:write\)/,
  ],
  [
    'leaving a group that denied alerts:write (a peer)',
    {
      actor: IAM_WRITER,
      targetBefore: IAM_WRITER,
      targetAfter: [...IAM_WRITER, 'alerts:write'],
      protectedChanges: ['group_ids'],
    },
    /\(alerts:write\)/,
  ],
  [
    'a gain the actor holds itself',
    {
      actor: [...IAM_WRITER, 'alerts:write'],
      targetBefore: IAM_WRITER,
      targetAfter: [...IAM_WRITER, 'alerts:write'],
      protectedChanges: ['group_ids'],
    },
    true,
  ],
  [
    'gaining only reads is not an escalation (as for assigning)',
    {
      actor: IAM_WRITER,
      self: true,
      targetBefore: IAM_WRITER,
      targetAfter: [...IAM_WRITER, 'audit:read'],
      protectedChanges: ['role_id'],
    },
    true,
  ],
  [
    'losing permissions grants nothing',
    {
      actor: IAM_WRITER,
      self: true,
      targetBefore: [...IAM_WRITER, 'alerts:write'],
      targetAfter: IAM_WRITER,
      protectedChanges: ['role_id'],
    },
    true,
  ],
  [
    'iam:admin may remove a deny',
    {
      actor: ['iam:admin'],
      self: true,
      targetBefore: ['iam:admin'],
      targetAfter: OWNER,
      protectedChanges: ['group_ids'],
    },
    true,
  ],
];

for (const [title, input, expected] of cases) {
  test(`rule: ${title}`, (t) => {
    const verdict = decideUserChange(facts(input));
    if (expected === true) t.deepEqual(verdict, { allowed: true });
    else {
      t.false(verdict.allowed);
      if (!verdict.allowed && expected instanceof RegExp) t.regex(verdict.reason, expected);
    }
  });
}

const profile = { email: 'a@example.com', name: 'A', roleId: 'viewer', groupIds: ['g1', 'g2'], phone: null };
test('protectedChanges names what really changes; the same value (as PUT sends it) and the name are no change', (t) => {
  t.deepEqual(protectedChanges(profile, true, { ...profile, groupIds: ['g2', 'g1'], name: 'B' }, true), []);
  t.deepEqual(
    protectedChanges(profile, true, { email: 'A@example.com' }),
    ['email'],
    'a different spelling is a change',
  );
  t.deepEqual(protectedChanges(profile, true, { phone: '+447700900123', roleId: null, groupIds: ['g1'] }, false), [
    'phone',
    'role_id',
    'group_ids',
    'is_active',
  ]);
  t.deepEqual(protectedChanges(profile, false, {}, true), ['is_active']);
});

// Which changes must apply to the very revision their checks read (else a conflict retry re-decides them unchecked).
for (const [title, changes, isActive, pinned] of [
  ['a rename', { name: 'New' }, undefined, false],
  ['nothing but an absent field', { email: undefined }, undefined, false],
  ['an email', { email: 'a@example.com' }, undefined, true],
  ['a phone (also clearing it)', { phone: null }, undefined, true],
  ['a role', { roleId: 'owner' }, undefined, true],
  ['groups', { groupIds: [] }, undefined, true],
  ['the active state', {}, false, true],
  ['a rename with a role', { name: 'New', roleId: 'viewer' }, undefined, true],
] as const) {
  test(`revision pinned for ${title}: ${pinned}`, (t) => {
    t.is(changeCheckedAgainstTarget(changes as Partial<UserProfile>, isActive), pinned);
  });
}
