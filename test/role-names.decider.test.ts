import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { nameReservationDecider, ORPHANED_NAME_RESERVATION_AFTER_MS } from '../commands/grant-holder-names.js';
import { grantHolderBodySchema } from '../src/contract/bodies/iam.js';
import { roleDecider } from '../commands/roles.js';
import { readModelPermissionSources } from '../src/auth/read-model-permission-sources.js';
import {
  grantHolderNameKey,
  nameReservationStream,
  type NameReservationEvent,
} from '../src/events/grant-holder-names.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const sameNames: [string, string][] = [
  ['oncall', 'OnCall'],
  ['oncall', 'ＯＮＣＡＬＬ'],
  ['oncall', 'on\u200bcall'],
  ['on call', 'On   Call'],
  ['Straße', 'STRASSE'],
  ['file', 'ﬁle'],
  ['café', 'cafe\u0301'],
];
for (const [a, b] of sameNames) {
  test(`"${a}" and "${JSON.stringify(b).slice(1, -1)}" are the same name`, (t) => {
    t.is(grantHolderNameKey(a), grantHolderNameKey(b));
    t.is(
      nameReservationStream('role', TEST_CONTEXT.tenantId, a),
      nameReservationStream('role', TEST_CONTEXT.tenantId, b),
    );
  });
}

test('names differ by more than case and form; roles and groups and tenants reserve apart', (t) => {
  t.not(grantHolderNameKey('oncall'), grantHolderNameKey('on-call'));
  t.not(
    nameReservationStream('role', TEST_CONTEXT.tenantId, 'x'),
    nameReservationStream('group', TEST_CONTEXT.tenantId, 'x'),
  );
  t.not(nameReservationStream('role', TEST_CONTEXT.tenantId, 'x'), nameReservationStream('role', randomUUID(), 'x'));
  t.regex(
    nameReservationStream('role', TEST_CONTEXT.tenantId, 'x'),
    new RegExp(`^roleName-${TEST_CONTEXT.tenantId}-[0-9a-f]{64}$`),
  );
});

const uuidShaped = [
  '5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d',
  '5B1C2F9E-3A7D-4E2B-9C1F-0D8E7A6B5C4D',
  '5b1c2f9e3a7d4e2b9c1f0d8e7a6b5c4d',
  '{5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d}',
  'urn:uuid:5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d',
  '５b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d',
];
for (const name of uuidShaped) {
  test(`a name shaped like a UUID is refused: ${name}`, (t) => {
    const parsed = grantHolderBodySchema.safeParse({ name, permissions: {} });
    t.false(parsed.success);
    t.deepEqual(
      parsed.error?.issues.map((issue) => issue.path),
      [['name']],
    );
  });
}

test('names that merely contain hex or hyphens, and invisible-only names', (t) => {
  t.true(grantHolderBodySchema.safeParse({ name: 'team-5b1c2f9e', permissions: {} }).success);
  t.false(grantHolderBodySchema.safeParse({ name: '\u200b\u200d', permissions: {} }).success);
});

for (const name of ['Owner', 'OWNER', 'ｏｗｎｅｒ', 'Ad\u00admin', 'VIEWER']) {
  test(`a custom role may not take a built-in role's name in any case or form: ${name}`, (t) => {
    const id = randomUUID();
    deciderSpec(t, roleDecider)
      .given([])
      .when({ kind: 'Create', id, fields: { name, description: '', permissions: {} } })
      .thenRejects('conflict', /built-in/);
  });
}

const role = nameReservationDecider('role');
const holder = '5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const other = '7c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const reservedAt = TEST_CONTEXT.now.toISOString();
const reserved: NameReservationEvent = {
  type: 'RoleNameReserved',
  data: { holderId: holder, name: 'oncall', reservedAt },
};

test('a free name is reserved; the holder reserving again records nothing', (t) => {
  deciderSpec(t, role).given([]).when({ kind: 'ReserveName', holderId: holder, name: 'oncall' }).then([reserved]);
  deciderSpec(t, role).given([reserved]).when({ kind: 'ReserveName', holderId: holder, name: 'OnCall' }).then([]);
});

test("another role's name is a conflict", (t) => {
  deciderSpec(t, role)
    .given([reserved])
    .when({ kind: 'ReserveName', holderId: other, name: 'OnCall' })
    .thenRejects('conflict', /a role named "OnCall" already exists/);
});

test('a released name is free again; only the holder releases it', (t) => {
  const released: NameReservationEvent = { type: 'RoleNameReleased', data: { holderId: holder } };
  deciderSpec(t, role).given([reserved]).when({ kind: 'ReleaseName', holderId: other }).then([]);
  deciderSpec(t, role).given([reserved]).when({ kind: 'ReleaseName', holderId: holder }).then([released]);
  deciderSpec(t, role)
    .given([reserved, released])
    .when({ kind: 'ReserveName', holderId: other, name: 'oncall' })
    .then([{ type: 'RoleNameReserved', data: { holderId: other, name: 'oncall', reservedAt } }]);
});

test('a stale reservation is taken over only after the grace period', (t) => {
  const later = new Date(TEST_CONTEXT.now.getTime() + ORPHANED_NAME_RESERVATION_AFTER_MS);
  const command = { kind: 'ReserveName', holderId: other, name: 'oncall', staleHolder: holder } as const;
  deciderSpec(t, role)
    .given([reserved])
    .when(command, { now: new Date(later.getTime() - 1) })
    .thenRejects('conflict');
  deciderSpec(t, role)
    .given([reserved])
    .when(command, { now: later })
    .then([
      { type: 'RoleNameReleased', data: { holderId: holder } },
      { type: 'RoleNameReserved', data: { holderId: other, name: 'oncall', reservedAt: later.toISOString() } },
    ]);
});

test('group names reserve with group events', (t) => {
  deciderSpec(t, nameReservationDecider('group'))
    .given([])
    .when({ kind: 'ReserveName', holderId: holder, name: 'DBAs' })
    .then([{ type: 'GroupNameReserved', data: { holderId: holder, name: 'DBAs', reservedAt } }]);
});

test('a token role name that matches nothing is ignored and logged once per name per process', async (t) => {
  const reader = openSqliteReadStore(join(mkdtempSync(join(tmpdir(), 'ww-names-')), 'read-models.db'));
  const warnings: object[] = [];
  const lookup = readModelPermissionSources(reader, { warn: ((fields: object) => warnings.push(fields)) as never });
  const principal = {
    subject: 's',
    userId: randomUUID(),
    tenantId: randomUUID(),
    envId: randomUUID(),
    roles: ['no-such-role', 'viewer'],
  };
  const first = await lookup.forPrincipal(principal);
  await lookup.forPrincipal(principal);
  t.deepEqual(
    first.levels.roles.map((r) => r.id),
    ['viewer'],
  );
  t.deepEqual(warnings, [{ tenantId: principal.tenantId, roleName: 'no-such-role', reason: 'no role has this name' }]);
  await reader.close();
});
