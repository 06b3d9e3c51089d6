import test from 'ava';
import { groupDecider } from '../commands/groups.js';
import { tenantDefaultsDecider } from '../commands/tenant-defaults.js';
import type { GroupEvent } from '../src/events/group.js';
import { deciderSpec } from './support/decider-spec.js';

const id = '5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const fields = { name: 'DBAs', description: '', permissions: { 'warehouse:read': 'allow' } as const };
const created: GroupEvent = { type: 'GroupCreated', data: { groupId: id, ...fields } };
const deleted: GroupEvent = { type: 'GroupDeleted', data: { groupId: id } };

test('create records GroupCreated; twice is a conflict', (t) => {
  deciderSpec(t, groupDecider).given([]).when({ kind: 'Create', id, fields }).then([created]);
  deciderSpec(t, groupDecider).given([created]).when({ kind: 'Create', id, fields }).thenRejects('conflict');
});

test('groups may take any name, including those of built-in roles', (t) => {
  deciderSpec(t, groupDecider)
    .given([])
    .when({ kind: 'Create', id, fields: { ...fields, name: 'owner' } })
    .then([{ type: 'GroupCreated', data: { groupId: id, ...fields, name: 'owner' } }]);
});

test('update records the new fields; an identical one records nothing', (t) => {
  deciderSpec(t, groupDecider)
    .given([created])
    .when({ kind: 'Update', id, fields: { ...fields, name: 'Data engineers' } })
    .then([{ type: 'GroupUpdated', data: { groupId: id, ...fields, name: 'Data engineers' } }]);
  deciderSpec(t, groupDecider).given([created]).when({ kind: 'Update', id, fields }).then([]);
});

test('a group with members cannot be deleted; an empty one is', (t) => {
  deciderSpec(t, groupDecider)
    .given([created])
    .when({ kind: 'Delete', id, users: 1 })
    .thenRejects('conflict', /1 member/);
  deciderSpec(t, groupDecider).given([created]).when({ kind: 'Delete', id, users: 0 }).then([deleted]);
});

for (const [title, history] of [
  ['a group that never existed', []],
  ['a deleted group', [created, deleted]],
] as const) {
  test(`update and delete of ${title} are not found`, (t) => {
    deciderSpec(t, groupDecider)
      .given([...history])
      .when({ kind: 'Update', id, fields })
      .thenRejects('not_found');
    deciderSpec(t, groupDecider)
      .given([...history])
      .when({ kind: 'Delete', id, users: 0 })
      .thenRejects('not_found');
  });
}

test('tenant defaults are recorded when they change, not when they are the same', (t) => {
  const set = { type: 'TenantPermissionDefaultsSet', data: { permissions: { 'iam:read': 'allow' } } } as const;
  deciderSpec(t, tenantDefaultsDecider)
    .given([])
    .when({ kind: 'SetTenantPermissionDefaults', permissions: { 'iam:read': 'allow' } })
    .then([set]);
  deciderSpec(t, tenantDefaultsDecider)
    .given([set])
    .when({ kind: 'SetTenantPermissionDefaults', permissions: { 'iam:read': 'allow' } })
    .then([]);
  deciderSpec(t, tenantDefaultsDecider)
    .given([set])
    .when({ kind: 'SetTenantPermissionDefaults', permissions: {} })
    .then([{ type: 'TenantPermissionDefaultsSet', data: { permissions: {} } }]);
});
