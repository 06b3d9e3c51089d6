import test from 'ava';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../src/config.js';

test('defaults give an embedded platform on port 3000', (t) => {
  const config = loadConfig({});
  t.is(config.port, 3000);
  t.is(config.host, '127.0.0.1', 'loopback only: npm start prints the dev client secret');
  t.is(config.baseUrl, 'http://localhost:3000');
  t.is(config.dataDir, './data');
  t.deepEqual(config.auth, { mode: 'embedded', issuer: 'http://localhost:3000' });
  t.is(config.eventStoreUrl, undefined);
  t.is(config.mongodb, undefined);
  t.false(config.outboundAllowPrivateNetworks);
});

test('BASE_URL follows PORT unless set, and is the token audience', (t) => {
  t.is(loadConfig({ PORT: '8080' }).baseUrl, 'http://localhost:8080');
  t.is(loadConfig({ BASE_URL: 'https://watch.example.com/' }).baseUrl, 'https://watch.example.com');
});

const bad: [string, Record<string, string>, RegExp][] = [
  ['a port that is not a number', { PORT: 'http' }, /^invalid configuration: PORT: /],
  ['a port out of range', { PORT: '70000' }, /PORT: /],
  ['a base URL that is not a URL', { BASE_URL: 'nope' }, /BASE_URL: /],
  ['an unknown log level', { LOG_LEVEL: 'loud' }, /LOG_LEVEL: /],
  [
    'a JWKS URI without an issuer',
    { AUTH_JWKS_URI: 'https://idp.example/.well-known/jwks.json' },
    /AUTH_ISSUER: required/,
  ],
  [
    'an EventStoreDB URL of the wrong scheme',
    { EVENTSTORE_URL: 'http://localhost:2113' },
    /EVENTSTORE_URL: must be an esdb/,
  ],
  ['a MongoDB URL of the wrong scheme', { MONGODB_URL: 'postgres://x' }, /MONGODB_URL: /],
  ['a flag that is not a boolean', { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'maybe' }, /OUTBOUND_ALLOW_PRIVATE_NETWORKS: /],
];

for (const [title, env, message] of bad) {
  test(`${title} is refused with one line naming the variable`, (t) => {
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(error!.message, message);
    t.false(error!.message.includes('\n'));
  });
}

test('an external identity provider is selected by AUTH_JWKS_URI and AUTH_ISSUER', (t) => {
  const config = loadConfig({
    AUTH_JWKS_URI: 'https://tenant.auth.example/.well-known/jwks.json',
    AUTH_ISSUER: 'https://tenant.auth.example/',
  });
  t.deepEqual(config.auth, {
    mode: 'external',
    jwksUri: 'https://tenant.auth.example/.well-known/jwks.json',
    issuer: 'https://tenant.auth.example/',
  });
});

test('docker compose binds the app to every interface (the container port is published)', (t) => {
  const compose = readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8');
  const app = compose.slice(compose.indexOf('\n  app:'), compose.indexOf('\n  eventstore:'));
  t.regex(app, /^\s+HOST: "?0\.0\.0\.0"?$/m);
});

test('cluster leases default to 10 s renewed every 3 s', (t) => {
  t.deepEqual(loadConfig({}).cluster, { leaseMs: 10_000, renewEveryMs: 3_000 });
  t.deepEqual(loadConfig({ CLUSTER_LEASE_SECONDS: '30', CLUSTER_RENEW_SECONDS: '14' }).cluster, {
    leaseMs: 30_000,
    renewEveryMs: 14_000,
  });
});

const badCluster: [string, Record<string, string>, RegExp][] = [
  [
    'a lease under 3 s',
    { CLUSTER_LEASE_SECONDS: '2', CLUSTER_RENEW_SECONDS: '1' },
    /^invalid configuration: CLUSTER_LEASE_SECONDS: /,
  ],
  ['a lease over 300 s', { CLUSTER_LEASE_SECONDS: '301' }, /CLUSTER_LEASE_SECONDS: /],
  [
    'a renewal period of half the lease',
    { CLUSTER_LEASE_SECONDS: '10', CLUSTER_RENEW_SECONDS: '5' },
    /CLUSTER_RENEW_SECONDS: must be less than half of CLUSTER_LEASE_SECONDS \(10\)/,
  ],
  [
    'a renewal period over the default lease',
    { CLUSTER_RENEW_SECONDS: '12' },
    /CLUSTER_RENEW_SECONDS: must be less than half/,
  ],
  ['a renewal period that is not a number', { CLUSTER_RENEW_SECONDS: 'often' }, /CLUSTER_RENEW_SECONDS: /],
];
for (const [title, env, message] of badCluster) {
  test(`cluster: ${title} is refused with one line naming the variable`, (t) => {
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(error!.message, message);
    t.false(error!.message.includes('\n'));
  });
}
