import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.js';

const full = { IDP_MANAGEMENT_URL: 'https://tenant.auth.example', IDP_CLIENT_ID: 'abc', IDP_CLIENT_SECRET: 's3cret' };

test('without the IDP_* variables invitations use the outbox', (t) => {
  t.is(loadConfig({}).identityProvider, undefined);
});

test('with all three IDP_* variables the management API is configured', (t) => {
  t.deepEqual(loadConfig(full).identityProvider, { managementUrl: 'https://tenant.auth.example', clientId: 'abc', clientSecret: 's3cret' });
});

for (const missing of Object.keys(full)) {
  test(`${missing} missing while the others are set is one line naming it`, (t) => {
    const env: Record<string, string> = { ...full };
    delete env[missing];
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(error!.message, new RegExp(`^invalid configuration: ${missing}: required when any of IDP_MANAGEMENT_URL, IDP_CLIENT_ID, IDP_CLIENT_SECRET is set$`));
  });
}

test('an IDP_MANAGEMENT_URL that is not a URL is refused', (t) => {
  const error = t.throws(() => loadConfig({ ...full, IDP_MANAGEMENT_URL: 'tenant.auth' }), { instanceOf: ConfigError });
  t.regex(error!.message, /IDP_MANAGEMENT_URL: /);
  t.false(error!.message.includes('\n'));
});
