import test from 'ava';
import { roleDecider } from '../commands/roles.js';
import type { RoleEvent } from '../src/events/role.js';
import { deciderSpec } from './support/decider-spec.js';

const id = '5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const fields = {
  name: 'On-call lead',
  description: 'Runs incidents',
  permissions: { 'incidents:write': 'allow', 'iam:read': 'deny' } as const,
};
const created: RoleEvent = { type: 'RoleCreated', data: { roleId: id, ...fields } };
const deleted: RoleEvent = { type: 'RoleDeleted', data: { roleId: id } };

test('create records RoleCreated', (t) => {
  deciderSpec(t, roleDecider).given([]).when({ kind: 'Create', id, fields }).then([created]);
});

test('create twice is a conflict', (t) => {
  deciderSpec(t, roleDecider).given([created]).when({ kind: 'Create', id, fields }).thenRejects('conflict');
});

for (const name of ['owner', 'admin', 'responder', 'viewer']) {
  test(`a custom role may not be named like the built-in role ${name}`, (t) => {
    deciderSpec(t, roleDecider)
      .given([])
      .when({ kind: 'Create', id, fields: { ...fields, name } })
      .thenRejects('conflict', /built-in/);
    deciderSpec(t, roleDecider)
      .given([created])
      .when({ kind: 'Update', id, fields: { ...fields, name } })
      .thenRejects('conflict', /built-in/);
  });
}

test('update records the new fields; an identical update records nothing', (t) => {
  const changed = { ...fields, permissions: { 'incidents:write': 'deny' } as const };
  deciderSpec(t, roleDecider)
    .given([created])
    .when({ kind: 'Update', id, fields: changed })
    .then([{ type: 'RoleUpdated', data: { roleId: id, ...changed } }]);
  deciderSpec(t, roleDecider)
    .given([created])
    .when({
      kind: 'Update',
      id,
      fields: { ...fields, permissions: { 'iam:read': 'deny', 'incidents:write': 'allow' } },
    })
    .then([]);
});

test('a role users hold cannot be deleted', (t) => {
  deciderSpec(t, roleDecider)
    .given([created])
    .when({ kind: 'Delete', id, users: 2 })
    .thenRejects('conflict', /held by 2 user/);
});

test('a role nobody holds is deleted', (t) => {
  deciderSpec(t, roleDecider).given([created]).when({ kind: 'Delete', id, users: 0 }).then([deleted]);
});

for (const [title, history] of [
  ['a role that never existed', []],
  ['a deleted role', [created, deleted]],
] as const) {
  test(`update and delete of ${title} are not found`, (t) => {
    deciderSpec(t, roleDecider)
      .given([...history])
      .when({ kind: 'Update', id, fields })
      .thenRejects('not_found');
    deciderSpec(t, roleDecider)
      .given([...history])
      .when({ kind: 'Delete', id, users: 0 })
      .thenRejects('not_found');
  });
}
