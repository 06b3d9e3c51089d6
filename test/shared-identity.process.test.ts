/**
 * Instances behind one load balancer share the built-in identity provider's key and development
 * client (IDP_SIGNING_KEY_FILE, DEV_CLIENT_FILE): a token one instance issues works on another.
 * The control platform with DATA_DIR's own key refuses it, so the acceptance is the shared key's doing.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, loadConfig } from '../src/config.js';
import { IdentityFileError, initSharedIdentity, loadEmbeddedIdentity } from '../src/auth/identity-files.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';
import { nodeEntry } from './support/node-entry.js';

const BASE = 'http://localhost:8080';
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const sharedDir = tempDir('ww-shared-identity-');
const shared = {
  IDP_SIGNING_KEY_FILE: join(sharedDir, 'idp-signing-key.pem'),
  DEV_CLIENT_FILE: join(sharedDir, 'dev-client.json'),
};
const noWarnings = () => {};

const dataDirs = new Map<RunningPlatform, string>();
async function start(env: Record<string, string>) {
  const dataDir = tempDir('ww-instance-');
  const platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: BASE,
      LOG_LEVEL: 'silent',
      SYNC_SCHEDULER: 'off',
      DATA_DIR: dataDir,
      ...env,
    }),
  );
  dataDirs.set(platform, dataDir);
  return platform;
}

let a: RunningPlatform;
let b: RunningPlatform;
let control: RunningPlatform;
test.before(async () => {
  initSharedIdentity(
    { signingKeyFile: shared.IDP_SIGNING_KEY_FILE, devClientFile: shared.DEV_CLIENT_FILE },
    noWarnings,
  );
  [a, b, control] = await Promise.all([start(shared), start(shared), start({})]);
});
test.after.always(async () => {
  await Promise.all([a, b, control].map((platform) => platform?.stop()));
});

async function tokenFrom(platform: RunningPlatform, client: { client_id: string; client_secret: string }) {
  const response = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: BASE,
    }),
  });
  return { status: response.status, token: ((await response.json()) as { access_token?: string }).access_token };
}
const listChannels = (platform: RunningPlatform, token: string) =>
  fetch(`${platform.url}/api/v1/notification-channels`, { headers: { authorization: `Bearer ${token}` } }).then(
    (response) => response.status,
  );

test("a token from instance A's /oauth/token is accepted by instance B, and B's by A", async (t) => {
  const fromA = await tokenFrom(a, a.devClient!);
  t.is(fromA.status, 200);
  t.is(await listChannels(b, fromA.token!), 200);
  const fromB = await tokenFrom(b, a.devClient!);
  t.is(fromB.status, 200, 'B knows the client A printed');
  t.is(await listChannels(a, fromB.token!), 200);
});

test("an instance with a key of its own refuses the shared key's token (the control)", async (t) => {
  const fromA = await tokenFrom(a, a.devClient!);
  t.is(await listChannels(control, fromA.token!), 401);
  t.not(control.devClient!.client_id, a.devClient!.client_id);
});

test('both instances publish the same key id and know the same client; neither makes files of its own in DATA_DIR', async (t) => {
  const kids = async (platform: RunningPlatform) =>
    ((await (await fetch(`${platform.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map(
      (key) => key.kid,
    );
  t.deepEqual(await kids(a), await kids(b));
  t.deepEqual(a.devClient, b.devClient);
  t.deepEqual(a.devClient, JSON.parse(readFileSync(shared.DEV_CLIENT_FILE, 'utf8')));
  for (const platform of [a, b]) {
    t.false(existsSync(join(dataDirs.get(platform)!, 'idp-signing-key.pem')));
    t.false(existsSync(join(dataDirs.get(platform)!, 'dev-client.json')));
  }
  t.true(
    existsSync(join(dataDirs.get(control)!, 'idp-signing-key.pem')),
    'the control made its own (the check can fail)',
  );
});

test('the shared files are made 0600, once: a second init keeps them as they are', (t) => {
  const dir = tempDir('ww-init-');
  const files = {
    signingKeyFile: join(dir, 'identity', 'key.pem'),
    devClientFile: join(dir, 'identity', 'client.json'),
  };
  t.deepEqual(initSharedIdentity(files, noWarnings), { signingKeyFile: 'created', devClientFile: 'created' });
  const before = [readFileSync(files.signingKeyFile, 'utf8'), readFileSync(files.devClientFile, 'utf8')];
  for (const path of Object.values(files)) t.is(statSync(path).mode & 0o777, 0o600, path);
  t.is(statSync(join(dir, 'identity')).mode & 0o777, 0o700);
  t.deepEqual(initSharedIdentity(files, noWarnings), { signingKeyFile: 'kept', devClientFile: 'kept' });
  t.deepEqual([readFileSync(files.signingKeyFile, 'utf8'), readFileSync(files.devClientFile, 'utf8')], before);
});

test('a missing shared file stops start-up naming the variable, the path and how to make it', async (t) => {
  const missing = join(tempDir('ww-missing-'), 'key.pem');
  const error = await t.throwsAsync(start({ IDP_SIGNING_KEY_FILE: missing, DEV_CLIENT_FILE: shared.DEV_CLIENT_FILE }), {
    instanceOf: IdentityFileError,
  });
  t.is(
    error!.message,
    `IDP_SIGNING_KEY_FILE: ${missing}: no such file; make the shared files once with \`npm run identity:init\` (same variables set)`,
  );
});

const damaged: [string, 'signingKeyFile' | 'devClientFile', string, RegExp][] = [
  ['a key file that is not PEM', 'signingKeyFile', 'not a key', /^IDP_SIGNING_KEY_FILE: .*key\.pem: /],
  [
    'a key file with an EC key (tokens are RS256)',
    'signingKeyFile',
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    /^IDP_SIGNING_KEY_FILE: .*: not an RSA private key \(ec\)/,
  ],
  [
    'a client file that is not JSON',
    'devClientFile',
    '{"client_secret": "s3cret-not-echoed',
    /^DEV_CLIENT_FILE: .*client\.json: not JSON$/,
  ],
  [
    'a client file without a secret',
    'devClientFile',
    JSON.stringify({ client_id: 'dev-1', tenant_id: 't-secret-tenant', env_id: 'e', user_id: 'u', roles: ['owner'] }),
    /^DEV_CLIENT_FILE: .*: missing or invalid fields: client_secret$/,
  ],
];
for (const [title, which, content, message] of damaged) {
  test(`${title} is refused naming the variable, without echoing the content`, (t) => {
    const dir = tempDir('ww-damaged-');
    const files = { signingKeyFile: join(dir, 'key.pem'), devClientFile: join(dir, 'client.json') };
    initSharedIdentity(files, noWarnings);
    writeFileSync(files[which], content, { mode: 0o600 });
    const error = t.throws(() => loadEmbeddedIdentity(dir, files, noWarnings), { instanceOf: IdentityFileError });
    t.regex(error!.message, message);
    t.false(/s3cret|t-secret-tenant|BEGIN/.test(error!.message));
  });
}

test('a shared file readable by group or others is used, with a warning naming it (not its content)', (t) => {
  const dir = tempDir('ww-open-');
  const files = { signingKeyFile: join(dir, 'key.pem'), devClientFile: join(dir, 'client.json') };
  initSharedIdentity(files, noWarnings);
  const warnings: string[] = [];
  loadEmbeddedIdentity(dir, files, (message) => warnings.push(message));
  t.deepEqual(warnings, [], 'no warning at 0600');
  chmodSync(files.devClientFile, 0o644);
  const identity = loadEmbeddedIdentity(dir, files, (message) => warnings.push(message));
  t.truthy(identity.devClient.client_id);
  t.deepEqual(warnings, [
    `DEV_CLIENT_FILE: ${files.devClientFile} is readable by group or others (mode 644); chmod 600 it`,
  ]);
});

const identityConfigErrors: [string, Record<string, string>, string][] = [
  [
    'the key file without the client file',
    { IDP_SIGNING_KEY_FILE: '/k.pem' },
    'invalid configuration: DEV_CLIENT_FILE: required when IDP_SIGNING_KEY_FILE is set',
  ],
  [
    'the client file without the key file',
    { DEV_CLIENT_FILE: '/c.json' },
    'invalid configuration: IDP_SIGNING_KEY_FILE: required when DEV_CLIENT_FILE is set',
  ],
  [
    'shared files with an external identity provider',
    { ...shared, AUTH_JWKS_URI: 'https://idp.example/.well-known/jwks.json', AUTH_ISSUER: 'https://idp.example/' },
    'invalid configuration: IDP_SIGNING_KEY_FILE, DEV_CLIENT_FILE: only for the built-in identity provider (AUTH_JWKS_URI is set)',
  ],
];
for (const [title, env, message] of identityConfigErrors) {
  test(`configuration: ${title} is refused in one line`, (t) => {
    t.is(t.throws(() => loadConfig(env), { instanceOf: ConfigError })!.message, message);
  });
}

test("configuration: both files set select the shared identity; neither keeps DATA_DIR's", (t) => {
  t.deepEqual(loadConfig(shared).sharedIdentity, {
    signingKeyFile: shared.IDP_SIGNING_KEY_FILE,
    devClientFile: shared.DEV_CLIENT_FILE,
  });
  t.is(loadConfig({}).sharedIdentity, undefined);
});

test('npm run identity:init makes the files and prints their paths, not their content; without the variables it exits 2', async (t) => {
  const run = promisify(execFile);
  const dir = tempDir('ww-cli-');
  const env = { ...process.env, IDP_SIGNING_KEY_FILE: join(dir, 'key.pem'), DEV_CLIENT_FILE: join(dir, 'client.json') };
  const cli = nodeEntry('src/identity-init-cli.ts');
  const { stdout } = await run(process.execPath, cli, { env, cwd: new URL('..', import.meta.url) });
  t.is(
    stdout,
    `IDP_SIGNING_KEY_FILE ${env.IDP_SIGNING_KEY_FILE}: created\nDEV_CLIENT_FILE ${env.DEV_CLIENT_FILE}: created\n`,
  );
  const secret = (JSON.parse(readFileSync(env.DEV_CLIENT_FILE, 'utf8')) as { client_secret: string }).client_secret;
  t.false(stdout.includes(secret));
  const withoutVariables = { ...process.env, IDP_SIGNING_KEY_FILE: '', DEV_CLIENT_FILE: '' };
  const refused = (await t.throwsAsync(
    run(process.execPath, cli, { env: withoutVariables, cwd: new URL('..', import.meta.url) }),
  )) as Error & { code: number; stderr: string };
  t.is(refused.code, 2);
  t.is(refused.stderr, 'identity:init needs IDP_SIGNING_KEY_FILE and DEV_CLIENT_FILE (and no AUTH_JWKS_URI)\n');
});
