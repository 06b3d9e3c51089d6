/** Channel secrets are sealed in the event log: the files hold ciphertext, the API behaves as before. */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBoxError } from '../src/secrets/secret-box.js';
import { startTestIdentityProvider } from './support/jwks-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const INTEGRATION_KEY = 'PAGERKEY00007f3c9a1e5b2d00004c6f';
const pager = {
  name: 'Pager',
  type: 'pager',
  config: {
    integration_key: INTEGRATION_KEY,
    severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
  },
};

/** Every byte SQLite keeps for a database (the file and its write-ahead log). */
const databaseBytes = (dataDir: string, name: string) =>
  Buffer.concat(
    readdirSync(dataDir)
      .filter((file) => file.startsWith(name))
      .map((file) => readFileSync(join(dataDir, file))),
  );

const newDataDir = () => mkdtempSync(join(tmpdir(), 'ww-secrets-'));

async function createPager(app: TestApp) {
  const caller = app.newTenant();
  const created = await app.request('POST', '/notification-channels', { caller, body: pager });
  return { caller, id: created.body.data.id as string, created };
}

/** One platform for the tests that need nothing but a fresh tenant; the rotation below starts its own three. */
let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

for (const database of ['events.db', 'read-models.db']) {
  test(`the raw bytes of ${database} hold no secret after a pager channel is created through the API`, async (t) => {
    const { id, created } = await createPager(app);
    t.is(created.status, 201);
    const bytes = databaseBytes(app.dataDir, database);
    t.true(bytes.includes(id), 'the channel is in these files');
    t.true(bytes.includes('enc:v1:'), 'sealed');
    t.false(bytes.includes(INTEGRATION_KEY));
    t.false(bytes.includes(INTEGRATION_KEY.slice(-8)));
  });
}

test('the API still answers masked secrets, and a GET → PUT round trip keeps the secret', async (t) => {
  const { caller, id, created } = await createPager(app);
  t.is(created.body.data.config.integration_key, '****4c6f');
  const read = await app.request('GET', `/notification-channels/${id}`, { caller });
  const put = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { name: 'Renamed', type: 'pager', config: read.body.data.config },
  });
  t.is(put.status, 200);
  t.is(put.body.data.config.integration_key, '****4c6f');
  const stored = await app.platform.eventStore.readStream(`channel-${id}`);
  t.deepEqual(
    stored.map((event) => event.data.config),
    [pager.config, pager.config],
    'deciders and projections see the plain secret',
  );
});

test('without SECRETS_KEY the key is DATA_DIR/secrets.key, mode 0600', (t) => {
  t.is(statSync(join(app.dataDir, 'secrets.key')).mode & 0o777, 0o600);
});

test('after a rotation the previous key reads old events; without it they are a clear error', async (t) => {
  const dataDir = newDataDir();
  const [oldKey, newKey] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
  const idp = await startTestIdentityProvider();
  t.teardown(() => idp.stop());
  const before = await startTestApp({ dataDir, env: { SECRETS_KEY: oldKey }, idp });
  const { caller, id } = await createPager(before);
  await before.close();

  const rotated = await startTestApp({ dataDir, env: { SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey }, idp });
  t.teardown(() => rotated.close().catch(() => {}));
  const read = await rotated.request('GET', `/notification-channels/${id}`, { caller });
  t.is(read.body.data.config.integration_key, '****4c6f');
  const put = await rotated.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { name: 'After rotation', type: 'pager', config: read.body.data.config },
  });
  t.is(put.status, 200, 'the decider read the event sealed with the previous key');
  t.deepEqual(
    (await rotated.platform.eventStore.readStream(`channel-${id}`)).map(
      (event) => (event.data.config as { integration_key: string }).integration_key,
    ),
    [INTEGRATION_KEY, INTEGRATION_KEY],
  );
  await rotated.close();

  const forgotten = await startTestApp({ dataDir, env: { SECRETS_KEY: newKey }, idp });
  t.teardown(() => forgotten.close().catch(() => {}));
  const error = await t.throwsAsync(forgotten.platform.eventStore.readStream(`channel-${id}`), {
    instanceOf: SecretBoxError,
  });
  t.regex(error!.message, /neither SECRETS_KEY .* nor in SECRETS_KEY_PREVIOUS/);
});
