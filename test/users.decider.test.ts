import test from 'ava';
import { emailReservationDecider, ORPHANED_RESERVATION_AFTER_MS } from '../commands/user-email-reservations.js';
import { userDecider } from '../commands/users.js';
import { emailReservationStream, type UserEmailEvent, type UserEvent, type UserProfile } from '../src/events/user.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const userId = '6f1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const groupA = '7a1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const groupB = '8b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const profile: UserProfile = { email: 'ada@example.com', name: 'Ada', roleId: 'viewer', groupIds: [groupA] };
const created: UserEvent = { type: 'UserCreated', data: { userId, ...profile, isActive: true } };
const deactivated: UserEvent = { type: 'UserDeactivated', data: { userId } };
const removed: UserEvent = { type: 'UserRemoved', data: { userId } };
const at = TEST_CONTEXT.now.toISOString();

test('create on a new stream records UserCreated', (t) => {
  deciderSpec(t, userDecider).given([]).when({ kind: 'CreateUser', userId, profile, isActive: true }).then([created]);
});

test('create twice is a conflict', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'CreateUser', userId, profile, isActive: true })
    .thenRejects('conflict');
});

test('an update records the whole profile after the change', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'UpdateUser', userId, changes: { name: 'Ada L.', roleId: 'responder' } })
    .then([{ type: 'UserUpdated', data: { userId, ...profile, name: 'Ada L.', roleId: 'responder' } }]);
});

test('an update that changes nothing records nothing', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'UpdateUser', userId, changes: { ...profile }, isActive: true })
    .then([]);
});

test('is_active false deactivates without removing; true reactivates', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'UpdateUser', userId, changes: {}, isActive: false })
    .then([deactivated]);
  deciderSpec(t, userDecider)
    .given([created, deactivated])
    .when({ kind: 'UpdateUser', userId, changes: {}, isActive: true })
    .then([{ type: 'UserReactivated', data: { userId } }]);
  deciderSpec(t, userDecider)
    .given([created, deactivated])
    .when({ kind: 'UpdateUser', userId, changes: { name: 'A' }, isActive: false })
    .then([{ type: 'UserUpdated', data: { userId, ...profile, name: 'A' } }]);
});

test('nobody deactivates or deletes themselves', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'UpdateUser', userId, changes: {}, isActive: false }, { actor: userId })
    .thenRejects('conflict', /yourself/);
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'RemoveUser', userId }, { actor: userId })
    .thenRejects('conflict', /yourself/);
});

test('delete of an active user deactivates and removes it', (t) => {
  deciderSpec(t, userDecider).given([created]).when({ kind: 'RemoveUser', userId }).then([deactivated, removed]);
});

test('delete of a deactivated user only removes it', (t) => {
  deciderSpec(t, userDecider).given([created, deactivated]).when({ kind: 'RemoveUser', userId }).then([removed]);
});

const gone = [
  ['a user that never existed', [] as UserEvent[]],
  ['a removed user', [created, deactivated, removed]],
] as const;

for (const [title, history] of gone) {
  for (const command of [
    { kind: 'UpdateUser', userId, changes: { name: 'x' } },
    { kind: 'RemoveUser', userId },
    { kind: 'JoinGroup', userId, groupId: groupB },
    { kind: 'SetPermissionOverrides', userId, permissions: { 'iam:write': 'allow' } },
    { kind: 'RecordInvitation', userId, outcome: { sent: true, provider: 'outbox', reference: 'x' } },
  ] as const) {
    test(`${command.kind} of ${title} is not found`, (t) => {
      deciderSpec(t, userDecider)
        .given([...history])
        .when(command)
        .thenRejects('not_found');
    });
  }
}

test('joining a group adds it to group_ids; joining again records nothing', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'JoinGroup', userId, groupId: groupB })
    .then([{ type: 'UserUpdated', data: { userId, ...profile, groupIds: [groupA, groupB] } }]);
  deciderSpec(t, userDecider).given([created]).when({ kind: 'JoinGroup', userId, groupId: groupA }).then([]);
});

test('leaving a group removes it; leaving a group one is not in is not found', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'LeaveGroup', userId, groupId: groupA })
    .then([{ type: 'UserUpdated', data: { userId, ...profile, groupIds: [] } }]);
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'LeaveGroup', userId, groupId: groupB })
    .thenRejects('not_found');
});

test('overrides are recorded when they change, and cleared with an empty map', (t) => {
  const set: UserEvent = {
    type: 'UserPermissionOverridesSet',
    data: { userId, permissions: { 'iam:write': 'allow' } },
  };
  deciderSpec(t, userDecider)
    .given([created])
    .when({ kind: 'SetPermissionOverrides', userId, permissions: { 'iam:write': 'allow' } })
    .then([set]);
  deciderSpec(t, userDecider)
    .given([created, set])
    .when({ kind: 'SetPermissionOverrides', userId, permissions: { 'iam:write': 'allow' } })
    .then([]);
  deciderSpec(t, userDecider)
    .given([created, set])
    .when({ kind: 'SetPermissionOverrides', userId, permissions: {} })
    .then([{ type: 'UserPermissionOverridesSet', data: { userId, permissions: {} } }]);
});

test('invitation outcomes are recorded with the provider and its answer', (t) => {
  deciderSpec(t, userDecider)
    .given([created])
    .when({
      kind: 'RecordInvitation',
      userId,
      outcome: { sent: false, provider: 'management-api', error: 'ticket: 503' },
    })
    .then([{ type: 'UserInvitationFailed', data: { userId, provider: 'management-api', error: 'ticket: 503' } }]);
  deciderSpec(t, userDecider)
    .given([created])
    .when({
      kind: 'RecordInvitation',
      userId,
      outcome: { sent: true, provider: 'management-api', reference: 'auth0|1' },
    })
    .then([{ type: 'UserInvited', data: { userId, provider: 'management-api', reference: 'auth0|1' } }]);
});

test('a login is recorded once per newly issued token', (t) => {
  const login: UserEvent = { type: 'UserLoggedIn', data: { userId, at, tokenIssuedAt: 1000 } };
  deciderSpec(t, userDecider).given([created]).when({ kind: 'RecordLogin', userId, tokenIssuedAt: 1000 }).then([login]);
  deciderSpec(t, userDecider)
    .given([created, login])
    .when({ kind: 'RecordLogin', userId, tokenIssuedAt: 1000 })
    .then([]);
  deciderSpec(t, userDecider)
    .given([created, login])
    .when({ kind: 'RecordLogin', userId, tokenIssuedAt: 999 })
    .then([]);
  deciderSpec(t, userDecider)
    .given([created, login])
    .when({ kind: 'RecordLogin', userId, tokenIssuedAt: 1001 })
    .then([{ type: 'UserLoggedIn', data: { userId, at, tokenIssuedAt: 1001 } }]);
  deciderSpec(t, userDecider)
    .given([created, deactivated])
    .when({ kind: 'RecordLogin', userId, tokenIssuedAt: 1001 })
    .then([]);
});

// The email reservation stream.
const other = '9c1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const reserved = (holder: string, reservedAt = at): UserEmailEvent => ({
  type: 'UserEmailReserved',
  data: { userId: holder, reservedAt },
});
const released = (holder: string): UserEmailEvent => ({ type: 'UserEmailReleased', data: { userId: holder } });
const later = (ms: number) => new Date(TEST_CONTEXT.now.getTime() + ms);

test('a free address is reserved; a released one can be reserved again', (t) => {
  deciderSpec(t, emailReservationDecider)
    .given([])
    .when({ kind: 'ReserveEmail', userId })
    .then([reserved(userId)]);
  deciderSpec(t, emailReservationDecider)
    .given([reserved(other), released(other)])
    .when({ kind: 'ReserveEmail', userId })
    .then([reserved(userId)]);
});

test("another user's address is a conflict; the holder's own is a no-op", (t) => {
  deciderSpec(t, emailReservationDecider)
    .given([reserved(other)])
    .when({ kind: 'ReserveEmail', userId })
    .thenRejects('conflict', /already exists/);
  deciderSpec(t, emailReservationDecider)
    .given([reserved(userId)])
    .when({ kind: 'ReserveEmail', userId })
    .then([]);
});

test('a stale holder is replaced only after the grace period', (t) => {
  deciderSpec(t, emailReservationDecider)
    .given([reserved(other)])
    .when({ kind: 'ReserveEmail', userId, staleHolder: other }, { now: later(ORPHANED_RESERVATION_AFTER_MS - 1) })
    .thenRejects('conflict');
  deciderSpec(t, emailReservationDecider)
    .given([reserved(other)])
    .when({ kind: 'ReserveEmail', userId, staleHolder: other }, { now: later(ORPHANED_RESERVATION_AFTER_MS) })
    .then([released(other), reserved(userId, later(ORPHANED_RESERVATION_AFTER_MS).toISOString())]);
});

test('a stale-holder claim about someone else is refused', (t) => {
  deciderSpec(t, emailReservationDecider)
    .given([reserved(other)])
    .when({ kind: 'ReserveEmail', userId, staleHolder: groupA }, { now: later(ORPHANED_RESERVATION_AFTER_MS * 10) })
    .thenRejects('conflict');
});

test('only the holder releases an address', (t) => {
  deciderSpec(t, emailReservationDecider)
    .given([reserved(userId)])
    .when({ kind: 'ReleaseEmail', userId })
    .then([released(userId)]);
  deciderSpec(t, emailReservationDecider)
    .given([reserved(other)])
    .when({ kind: 'ReleaseEmail', userId })
    .then([]);
  deciderSpec(t, emailReservationDecider).given([]).when({ kind: 'ReleaseEmail', userId }).then([]);
});

test('the reservation stream is per tenant and ignores case and surrounding spaces', (t) => {
  const tenant = TEST_CONTEXT.tenantId;
  t.is(emailReservationStream(tenant, ' Ada@Example.COM'), emailReservationStream(tenant, 'ada@example.com'));
  t.not(emailReservationStream(tenant, 'ada@example.com'), emailReservationStream(other, 'ada@example.com'));
  t.regex(emailReservationStream(tenant, 'ada@example.com'), new RegExp(`^userEmail-${tenant}-[0-9a-f]{64}$`));
});
