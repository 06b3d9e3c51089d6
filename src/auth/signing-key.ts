/**
 * The embedded identity provider's RSA key: generated once, kept in DATA_DIR so tokens stay valid
 * across restarts. The key id is the RFC 7638 thumbprint of the public key.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, string>;
}

export function loadOrCreateSigningKey(path: string): SigningKey {
  let pem: string;
  if (existsSync(path)) {
    pem = readFileSync(path, 'utf8');
  } else {
    mkdirSync(dirname(path), { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(path, pem, { mode: 0o600 });
  }
  const privateKey = createPrivateKey(pem);
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { n: string; e: string };
  const thumbprint = createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n })).digest('base64url');
  return { kid: thumbprint, privateKey, publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid: thumbprint, alg: 'RS256', use: 'sig' } };
}
