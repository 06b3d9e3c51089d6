/**
 * The secrets key when SECRETS_KEY is not set: DATA_DIR/secrets.key, made on first start (32
 * random bytes, base64) with mode 0600 in a directory of mode 0700. Several instances over one
 * EventStoreDB must share a key: set SECRETS_KEY on each of them instead.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SECRET_KEY_BYTES, SecretBoxError, secretBox, type SecretBox } from './secret-box.js';

export function loadOrCreateKeyFile(path: string): Buffer {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== SECRET_KEY_BYTES)
    throw new SecretBoxError(`${path} does not hold a base64 ${SECRET_KEY_BYTES}-byte key`);
  return key;
}

/** SECRETS_KEY (and SECRETS_KEY_PREVIOUS) when set; the key file otherwise. */
export function loadSecretBox(secrets: { key?: Buffer; previousKeys: readonly Buffer[] }, keyFile: string): SecretBox {
  return secretBox(secrets.key ?? loadOrCreateKeyFile(keyFile), secrets.previousKeys);
}
