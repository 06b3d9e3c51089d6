import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.js';

const full = { IDP_MANAGEMENT_URL: 'https://tenant.auth.example', IDP_CLIENT_ID: 'abc', IDP_CLIENT_SECRET: 's3cret' };

test('without the IDP_* variables invitations use the outbox', (t) => {
  t.is(loadConfig({}).identityProvider, undefined);
});

test('with all three IDP_* variables the management API is configured, its audience and connection defaulted', (t) => {
  t.deepEqual(loadConfig(full).identityProvider, {
    managementUrl: 'https://tenant.auth.example',
    clientId: 'abc',
    clientSecret: 's3cret',
    audience: 'https://tenant.auth.example/api/v2/',
    connection: 'Username-Password-Authentication',
  });
});

test('behind a custom domain the Management API audience, the connection and the application are configurable', (t) => {
  const config = loadConfig({
    ...full,
    IDP_MANAGEMENT_URL: 'https://login.example.com/',
    IDP_MANAGEMENT_AUDIENCE: 'https://tenant.eu.auth0.com/api/v2/',
    IDP_CONNECTION: 'staff-db',
    IDP_APPLICATION_CLIENT_ID: 'spa-client',
  });
  t.like(config.identityProvider, {
    audience: 'https://tenant.eu.auth0.com/api/v2/',
    connection: 'staff-db',
    applicationClientId: 'spa-client',
  });
});

test('an IDP_MANAGEMENT_AUDIENCE that is not the /api/v2/ identifier is refused in one line', (t) => {
  const error = t.throws(() => loadConfig({ ...full, IDP_MANAGEMENT_AUDIENCE: 'https://tenant.eu.auth0.com/api/v2' }), {
    instanceOf: ConfigError,
  });
  t.regex(error!.message, /^invalid configuration: IDP_MANAGEMENT_AUDIENCE: must be the Management API identifier/);
  t.false(error!.message.includes('\n'));
});

for (const extra of ['IDP_MANAGEMENT_AUDIENCE', 'IDP_CONNECTION', 'IDP_APPLICATION_CLIENT_ID']) {
  test(`${extra} without the three IDP_* variables is a configuration error`, (t) => {
    const value = extra === 'IDP_MANAGEMENT_AUDIENCE' ? 'https://tenant.eu.auth0.com/api/v2/' : 'x';
    const error = t.throws(() => loadConfig({ [extra]: value }), { instanceOf: ConfigError });
    t.is(
      error!.message,
      `invalid configuration: IDP_MANAGEMENT_URL, IDP_CLIENT_ID, IDP_CLIENT_SECRET: required when ${extra} is set`,
    );
  });
}

for (const missing of Object.keys(full)) {
  test(`${missing} missing while the others are set is one line naming it`, (t) => {
    const env: Record<string, string> = { ...full };
    delete env[missing];
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(
      error!.message,
      new RegExp(
        `^invalid configuration: ${missing}: required when any of IDP_MANAGEMENT_URL, IDP_CLIENT_ID, IDP_CLIENT_SECRET is set$`,
      ),
    );
  });
}

test('an IDP_MANAGEMENT_URL that is not a URL is refused', (t) => {
  const error = t.throws(() => loadConfig({ ...full, IDP_MANAGEMENT_URL: 'tenant.auth' }), { instanceOf: ConfigError });
  t.regex(error!.message, /IDP_MANAGEMENT_URL: /);
  t.false(error!.message.includes('\n'));
});
