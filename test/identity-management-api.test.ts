import test from 'ava';
import { managementApiIdentityProvider } from '../src/gateways/identity/management-api.js';
import { IdentityProviderError } from '../src/gateways/identity/port.js';
import { adapter, invitee, recordingMailer, within } from './support/identity-fixtures.js';
import { DATABASE_CONNECTION, type ManagementStandIn } from './support/idp-management-standin.js';

test('an invitation takes a management token, creates the user, creates a ticket and mails it', async (t) => {
  const standIn = await within(t);
  const { sent, mailer } = recordingMailer();
  const receipt = await adapter(standIn, mailer).invite(invitee(1));
  t.deepEqual(
    standIn.requests.map((r) => r.step),
    ['token', 'create_user', 'ticket'],
  );
  const user = standIn.databaseUser('user1@example.com')!;
  t.is(receipt.reference, user.user_id);
  t.deepEqual(user.app_metadata, { tenant_id: invitee(1).tenantId, user_id: invitee(1).userId });
  const [token, create, ticket] = standIn.requests;
  t.like(token!.body, {
    grant_type: 'client_credentials',
    client_id: standIn.clientId,
    audience: `${standIn.url}/api/v2/`,
  });
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
  t.deepEqual(
    standIn.requests.map((r) => r.step),
    ['token', 'create_user', 'ticket', 'create_user', 'token', 'create_user', 'ticket'],
  );
});

test('a retry for a user the provider already has finds it by email and sends a new ticket', async (t) => {
  const standIn = await within(t);
  const { sent, mailer } = recordingMailer();
  const provider = adapter(standIn, mailer);
  standIn.failWith('ticket', 503, 'Service temporarily unavailable');
  await t.throwsAsync(provider.invite(invitee(1)));
  standIn.heal();
  const receipt = await provider.invite(invitee(1));
  t.is(receipt.reference, standIn.databaseUser('user1@example.com')!.user_id);
  t.is(sent.length, 1);
});

test('the lookup after a 409 asks for the lower-cased address, which is how the provider stored it', async (t) => {
  const standIn = await within(t);
  const provider = adapter(standIn, recordingMailer().mailer);
  standIn.failWith('ticket', 503, 'Service temporarily unavailable');
  await t.throwsAsync(provider.invite(invitee(1))); // the user now exists, stored as user1@example.com
  standIn.heal();
  const receipt = await provider.invite(invitee(1)); // mixed case again: User1@Example.com
  t.is(receipt.reference, standIn.databaseUser('user1@example.com')!.user_id);
  t.true(standIn.requests.some((r) => r.step === 'find_user' && r.path.endsWith('email=user1%40example.com')));
});

test("the lookup after a 409 takes the configured connection's user, not another connection's with the same address", async (t) => {
  const standIn = await within(t);
  const social = standIn.addUser('user1@example.com', 'google-oauth2', 'google-oauth2'); // listed first
  const provider = adapter(standIn, recordingMailer().mailer);
  standIn.failWith('ticket', 503, 'Service temporarily unavailable');
  await t.throwsAsync(provider.invite(invitee(1)));
  standIn.heal();
  const receipt = await provider.invite(invitee(1));
  const ours = standIn.databaseUser('user1@example.com')!;
  t.not(receipt.reference, social.user_id);
  t.is(receipt.reference, ours.user_id);
  t.is(standIn.tickets.at(-1)!.user_id, ours.user_id);
});

test('a 409 whose address belongs only to other connections is a find_user failure naming the connection', async (t) => {
  const standIn = await within(t);
  standIn.addUser('user1@example.com', 'google-oauth2', 'google-oauth2');
  standIn.failWith('create_user', 409, 'The user already exists.');
  const error = await t.throwsAsync(adapter(standIn, recordingMailer().mailer).invite(invitee(1)), {
    instanceOf: IdentityProviderError,
  });
  t.is(error!.step, 'find_user');
  t.regex(error!.message, new RegExp(`no user of it in the connection ${DATABASE_CONNECTION}$`));
});

test('on New Universal Login the ticket names the application, so the invitee is sent on to it after setting the password', async (t) => {
  const standIn = await within(t, {
    loginExperience: 'new',
    applications: { 'app-client': 'https://platform.test/login' },
  });
  await adapter(standIn, recordingMailer().mailer, { applicationClientId: 'app-client' }).invite(invitee(1));
  const ticket = standIn.requests.find((r) => r.step === 'ticket')!;
  t.is(ticket.body!.client_id, 'app-client');
  t.false('result_url' in ticket.body!, 'result_url is refused alongside client_id');
  t.is(standIn.tickets[0]!.redirectsTo, 'https://platform.test/login');
});

test('without an application client id the ticket carries result_url, which only the classic login page follows', async (t) => {
  const classic = await within(t, { loginExperience: 'classic' });
  await adapter(classic, recordingMailer().mailer).invite(invitee(1));
  t.is(classic.tickets[0]!.redirectsTo, 'http://platform.test');
  const universal = await within(t, { loginExperience: 'new' });
  await adapter(universal, recordingMailer().mailer).invite(invitee(1));
  t.is(
    universal.tickets[0]!.redirectsTo,
    undefined,
    'New Universal Login ignores result_url: why IDP_APPLICATION_CLIENT_ID exists',
  );
});

test('the stand-in refuses a ticket with both result_url and client_id, as the provider does', async (t) => {
  const standIn = await within(t);
  const token = (await (
    await fetch(`${standIn.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: standIn.clientId,
        client_secret: standIn.clientSecret,
        audience: `${standIn.url}/api/v2/`,
      }),
    })
  ).json()) as { access_token: string };
  const answer = await fetch(`${standIn.url}/api/v2/tickets/password-change`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
    body: JSON.stringify({ user_id: 'auth0|x', result_url: 'https://platform.test', client_id: 'app-client' }),
  });
  t.is(answer.status, 400);
});

test("with a custom domain the token is asked for the tenant's Management API audience, not the custom domain's", async (t) => {
  const audience = 'https://tenant.eu.auth0.com/api/v2/';
  const standIn = await within(t, { managementAudience: audience });
  const defaulted = await t.throwsAsync(adapter(standIn, recordingMailer().mailer).invite(invitee(1)), {
    instanceOf: IdentityProviderError,
  });
  t.regex(defaulted!.message, /^token: the identity provider answered 403: Service not enabled within domain/);
  await adapter(standIn, recordingMailer().mailer, { audience }).invite(invitee(2));
  t.is(standIn.requests.filter((r) => r.step === 'token').at(-1)!.body!.audience, audience);
});

test('a provisional password with three identical characters in a row is refused by the stand-in, and ours never has one', async (t) => {
  const standIn = await within(t);
  standIn.failWith('ticket', 503, 'not needed here');
  // A random source that always draws the first character: without the rule this would be "aaaa…".
  const error = await t.throwsAsync(
    adapter(standIn, recordingMailer().mailer, { random: () => 0 }).invite(invitee(1)),
    { instanceOf: IdentityProviderError },
  );
  t.is(error!.step, 'ticket', 'the user was created');
  const password = String(standIn.requests.find((r) => r.step === 'create_user')!.body!.password);
  t.notRegex(password, /(.)\1\1/);
  const weak = await fetch(`${standIn.url}/api/v2/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: standIn.requests[1]!.authorization! },
    body: JSON.stringify({
      email: 'x@example.com',
      name: 'x',
      connection: DATABASE_CONNECTION,
      password: 'Abc111-def-ghi',
    }),
  });
  t.is(weak.status, 400);
  t.regex(((await weak.json()) as { message: string }).message, /PasswordStrengthError/);
});

const failures: [string, Parameters<ManagementStandIn['failWith']>, RegExp][] = [
  ['refused credentials', ['token', 401, 'Unauthorized'], /^token: the identity provider answered 401: Unauthorized$/],
  [
    'a refused user',
    ['create_user', 400, 'PasswordStrengthError: Password is too weak'],
    /^create_user: .* 400: PasswordStrengthError/,
  ],
  [
    'an unavailable ticket endpoint',
    ['ticket', 503, 'Service temporarily unavailable'],
    /^ticket: .* 503: Service temporarily unavailable$/,
  ],
];

for (const [title, [step, status, message], expected] of failures) {
  test(`${title} is an IdentityProviderError naming the step and the provider's message, and nothing is mailed`, async (t) => {
    const standIn = await within(t);
    const { sent, mailer } = recordingMailer();
    standIn.failWith(step, status, message);
    const error = await t.throwsAsync(adapter(standIn, mailer).invite(invitee(1)), {
      instanceOf: IdentityProviderError,
    });
    t.regex(error!.message, expected);
    t.is(error!.step, step);
    t.is(error!.status, status);
    t.is(sent.length, 0);
  });
}

test('a provider that does not answer fails at the timeout', async (t) => {
  const standIn = await within(t);
  // Only create_user hangs; the bound leaves the token call room on a busy machine.
  standIn.hang('create_user');
  const provider = adapter(standIn, recordingMailer().mailer, { timeoutMs: 1500 });
  const error = await t.throwsAsync(provider.invite(invitee(1)), { instanceOf: IdentityProviderError });
  t.is(error!.message, 'create_user: no answer within 1500 ms');
});

test('an unreachable provider is reported without internals', async (t) => {
  const standIn = await within(t);
  const url = standIn.url;
  await standIn.stop();
  const provider = managementApiIdentityProvider({
    managementUrl: url,
    clientId: 'x',
    clientSecret: 'y',
    mailer: recordingMailer().mailer,
    resultUrl: 'http://platform.test',
  });
  const error = await t.throwsAsync(provider.invite(invitee(1)), { instanceOf: IdentityProviderError });
  t.is(error!.message, 'token: the identity provider could not be reached');
});
