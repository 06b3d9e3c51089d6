import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';
import { loadOrCreateKeyFile } from '../src/secrets/key-file.js';
import { isSealed, keyIdOf, secretBox, SecretBoxError } from '../src/secrets/secret-box.js';

const key = randomBytes(32);

test('a sealed secret opens to the same string; two seals of it differ', (t) => {
  const box = secretBox(key);
  const sealed = box.seal('R0UTINGKEY1234567890');
  t.true(isSealed(sealed));
  t.regex(sealed, new RegExp(`^enc:v1:${keyIdOf(key)}:[\\w-]+:[\\w-]+$`));
  t.false(sealed.includes('R0UTINGKEY'));
  t.is(box.open(sealed), 'R0UTINGKEY1234567890');
  t.not(box.seal('R0UTINGKEY1234567890'), sealed, 'a fresh IV each time');
  t.is(box.open(box.seal('')), '');
});

test('an altered ciphertext is refused', (t) => {
  const box = secretBox(key);
  const sealed = box.seal('Bearer secret-token');
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[4]!, 'base64url');
  bytes[0]! ^= 1;
  const altered = [...parts.slice(0, 4), bytes.toString('base64url')].join(':');
  t.throws(() => box.open(altered), { instanceOf: SecretBoxError, message: /altered/ });
});

test('a value sealed with an unknown key names that key', (t) => {
  const other = randomBytes(32);
  const sealed = secretBox(other).seal('x');
  t.throws(() => secretBox(key).open(sealed), {
    instanceOf: SecretBoxError,
    message: new RegExp(`sealed with key ${keyIdOf(other)}.*SECRETS_KEY_PREVIOUS`),
  });
});

test('after a rotation the previous key still opens what it sealed; new seals use the new key', (t) => {
  const old = randomBytes(32);
  const sealedBefore = secretBox(old).seal('old secret');
  const rotated = secretBox(key, [old]);
  t.is(rotated.open(sealedBefore), 'old secret');
  t.true(rotated.seal('new').startsWith(`enc:v1:${keyIdOf(key)}:`));
});

test('the key file is made once with mode 0600 in a directory of mode 0700, and read back after', (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'ww-key-')), 'data');
  const path = join(dir, 'secrets.key');
  const first = loadOrCreateKeyFile(path);
  t.is(first.length, 32);
  t.is(statSync(path).mode & 0o777, 0o600);
  t.is(statSync(dir).mode & 0o777, 0o700);
  t.deepEqual(loadOrCreateKeyFile(path), first);
  t.is(readFileSync(path, 'utf8').trim(), first.toString('base64'));
});

const bad: [string, Record<string, string>, RegExp][] = [
  [
    'a SECRETS_KEY that is not 32 bytes',
    { SECRETS_KEY: randomBytes(16).toString('base64') },
    /^invalid configuration: SECRETS_KEY: must be 32 bytes in base64/,
  ],
  ['a SECRETS_KEY that is not base64', { SECRETS_KEY: 'not a key!' }, /SECRETS_KEY: must be 32 bytes/],
  [
    'a bad key in SECRETS_KEY_PREVIOUS',
    { SECRETS_KEY_PREVIOUS: `${key.toString('base64')},short` },
    /SECRETS_KEY_PREVIOUS\.1: must be 32 bytes/,
  ],
];
for (const [title, env, message] of bad) {
  test(`${title} stops start-up with one line naming it`, (t) => {
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(error!.message, message);
    t.false(error!.message.includes(key.toString('base64')), 'no key in the message');
  });
}

test('SECRETS_KEY and SECRETS_KEY_PREVIOUS are read as keys', (t) => {
  const old = randomBytes(32);
  const config = loadConfig({
    SECRETS_KEY: key.toString('base64'),
    SECRETS_KEY_PREVIOUS: ` ${old.toString('base64')} ,`,
  });
  t.deepEqual(config.secrets, { key, previousKeys: [old] });
  t.deepEqual(loadConfig({}).secrets, { key: undefined, previousKeys: [] });
});
