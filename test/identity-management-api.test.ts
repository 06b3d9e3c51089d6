import test from 'ava';
import { managementApiIdentityProvider } from '../src/gateways/identity/management-api.js';
import { IdentityProviderError, type InvitationMailer, type OutgoingEmail } from '../src/gateways/identity/port.js';
import { startManagementStandIn, type ManagementStandIn } from './support/idp-management-standin.js';

const invitee = (n: number) => ({ tenantId: '00000000-0000-4000-8000-000000000001', userId: `00000000-0000-4000-8000-00000000000${n}`, email: `User${n}@Example.com`, name: `User ${n}` });

function recordingMailer() {
  const sent: OutgoingEmail[] = [];
  const mailer: InvitationMailer = { send: async (email) => (sent.push(email), { messageId: `<${sent.length}@test>`, location: `${sent.length}.eml` }) };
  return { sent, mailer };
}

function adapter(standIn: ManagementStandIn, mailer: InvitationMailer, extra: { timeoutMs?: number; now?: () => number } = {}) {
  return managementApiIdentityProvider({
    managementUrl: standIn.url, clientId: standIn.clientId, clientSecret: standIn.clientSecret, mailer, resultUrl: 'http://platform.test', ...extra,
  });
}

const within = async (t: { teardown: (fn: () => Promise<void>) => void }, options?: { tokenLifetimeSeconds?: number }) => {
  const standIn = await startManagementStandIn(options);
  t.teardown(() => standIn.stop());
  return standIn;
};

test('an invitation takes a management token, creates the user, creates a ticket and mails it', async (t) => {
  const standIn = await within(t);
  const { sent, mailer } = recordingMailer();
  const receipt = await adapter(standIn, mailer).invite(invitee(1));
  t.deepEqual(standIn.requests.map((r) => r.step), ['token', 'create_user', 'ticket']);
  const user = standIn.users.get('user1@example.com')!;
  t.is(receipt.reference, user.user_id);
  t.deepEqual(user.app_metadata, { tenant_id: invitee(1).tenantId, user_id: invitee(1).userId });
  const [token, create, ticket] = standIn.requests;
  t.like(token!.body, { grant_type: 'client_credentials', client_id: standIn.clientId, audience: `${standIn.url}/api/v2/` });
  t.is(create!.authorization, ticket!.authorization);
  t.like(ticket!.body, { user_id: user.user_id, result_url: 'http://platform.test', mark_email_as_verified: true });
  t.is(sent.length, 1);
  t.deepEqual(sent[0]!.to, { name: 'User 1', address: 'User1@Example.com' });
  t.true(sent[0]!.text.includes(standIn.tickets[0]!.ticket), 'the mail carries the ticket link');
});

test('the management token is reused until it is about to expire', async (t) => {
  const standIn = await within(t, { tokenLifetimeSeconds: 120 });
  let clock = 1_000_000;
  const provider = adapter(standIn, recordingMailer().mailer, { now: () => clock });
  await provider.invite(invitee(1));
  await provider.invite(invitee(2));
  t.is(standIn.requests.filter((r) => r.step === 'token').length, 1);
  clock += 61_000; // 120 s lifetime minus the 60 s margin has passed
  await provider.invite(invitee(3));
  t.is(standIn.requests.filter((r) => r.step === 'token').length, 2);
});

test('a revoked token is replaced once and the call goes through', async (t) => {
  const standIn = await within(t);
  const provider = adapter(standIn, recordingMailer().mailer);
  await provider.invite(invitee(1));
  standIn.revokeTokens();
  await provider.invite(invitee(2));
  t.deepEqual(standIn.requests.map((r) => r.step), ['token', 'create_user', 'ticket', 'create_user', 'token', 'create_user', 'ticket']);
});

test('a retry for a user the provider already has finds it by email and sends a new ticket', async (t) => {
  const standIn = await within(t);
  const { sent, mailer } = recordingMailer();
  const provider = adapter(standIn, mailer);
  standIn.failWith('ticket', 503, 'Service temporarily unavailable');
  await t.throwsAsync(provider.invite(invitee(1)));
  standIn.heal();
  const receipt = await provider.invite(invitee(1));
  t.is(receipt.reference, standIn.users.get('user1@example.com')!.user_id);
  t.true(standIn.requests.some((r) => r.step === 'find_user' && r.path.includes('email=User1%40Example.com')));
  t.is(sent.length, 1);
});

const failures: [string, Parameters<ManagementStandIn['failWith']>, RegExp][] = [
  ['refused credentials', ['token', 401, 'Unauthorized'], /^token: the identity provider answered 401: Unauthorized$/],
  ['a refused user', ['create_user', 400, 'PasswordStrengthError: Password is too weak'], /^create_user: .* 400: PasswordStrengthError/],
  ['an unavailable ticket endpoint', ['ticket', 503, 'Service temporarily unavailable'], /^ticket: .* 503: Service temporarily unavailable$/],
];

for (const [title, [step, status, message], expected] of failures) {
  test(`${title} is an IdentityProviderError naming the step and the provider's message, and nothing is mailed`, async (t) => {
    const standIn = await within(t);
    const { sent, mailer } = recordingMailer();
    standIn.failWith(step, status, message);
    const error = await t.throwsAsync(adapter(standIn, mailer).invite(invitee(1)), { instanceOf: IdentityProviderError });
    t.regex(error!.message, expected);
    t.is(error!.step, step);
    t.is(error!.status, status);
    t.is(sent.length, 0);
  });
}

test('a provider that does not answer fails at the timeout', async (t) => {
  const standIn = await within(t);
  const provider = adapter(standIn, recordingMailer().mailer, { timeoutMs: 500 });
  await provider.invite(invitee(1)); // the management token is cached now, so only create_user can hang
  standIn.hang('create_user');
  const error = await t.throwsAsync(provider.invite(invitee(2)), { instanceOf: IdentityProviderError });
  t.is(error!.message, 'create_user: no answer within 500 ms');
});

test('an unreachable provider is reported without internals', async (t) => {
  const standIn = await within(t);
  const url = standIn.url;
  await standIn.stop();
  const provider = managementApiIdentityProvider({ managementUrl: url, clientId: 'x', clientSecret: 'y', mailer: recordingMailer().mailer, resultUrl: 'http://platform.test' });
  const error = await t.throwsAsync(provider.invite(invitee(1)), { instanceOf: IdentityProviderError });
  t.is(error!.message, 'token: the identity provider could not be reached');
});
