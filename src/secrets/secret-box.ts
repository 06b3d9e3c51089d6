/**
 * Sealing of secret strings at rest with AES-256-GCM. A sealed value reads
 * `enc:v1:<keyId>:<iv>:<ciphertext+tag>` (base64url parts); keyId is the first 8 hex characters of
 * sha256(key), so a value names the key that sealed it and old keys can stay around for reading
 * after a rotation. Sealed values are never rewritten (events are immutable): every key that ever
 * sealed something must stay available for opening it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

export interface SecretBox {
  /** Seals with the current key; a fresh random IV each time. */
  seal(plain: string): string;
  /** Opens a value sealed with the current or a previous key; throws SecretBoxError otherwise. */
  open(sealed: string): string;
}

export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

export const isSealed = (value: string) => value.startsWith(PREFIX);

export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export function secretBox(current: Buffer, previous: readonly Buffer[] = []): SecretBox {
  for (const key of [current, ...previous]) {
    if (key.length !== SECRET_KEY_BYTES)
      throw new SecretBoxError(`a secrets key must be ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
  }
  const currentId = keyIdOf(current);
  const keys = new Map([...previous, current].map((key) => [keyIdOf(key), key]));
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${currentId}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
    },
    open(value) {
      if (!isSealed(value)) throw new SecretBoxError('not a sealed value');
      const [keyId, iv, sealed, ...extra] = value.slice(PREFIX.length).split(':');
      if (!keyId || !iv || sealed === undefined || extra.length > 0)
        throw new SecretBoxError('a sealed value is malformed');
      const key = keys.get(keyId);
      if (!key) {
        throw new SecretBoxError(
          `a secret is sealed with key ${keyId}, which is neither SECRETS_KEY (${currentId}) nor in SECRETS_KEY_PREVIOUS; restore that key to read it`,
        );
      }
      const bytes = Buffer.from(sealed, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError(`a secret sealed with key ${keyId} fails its integrity check: it was altered`);
      }
    },
  };
}
