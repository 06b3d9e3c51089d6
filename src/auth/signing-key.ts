/**
 * The embedded identity provider's RSA key: generated once, kept in DATA_DIR so tokens stay valid
 * across restarts (or in IDP_SIGNING_KEY_FILE, shared by a cluster's instances: see
 * src/auth/identity-files.ts). The key id is the RFC 7638 thumbprint of the public key, so
 * instances holding the same key publish the same kid.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, string>;
}

/** A new 2048-bit RSA key as PKCS#8 PEM. */
export function newSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export function loadOrCreateSigningKey(path: string): SigningKey {
  let pem: string;
  if (existsSync(path)) {
    pem = readFileSync(path, 'utf8');
  } else {
    mkdirSync(dirname(path), { recursive: true });
    pem = newSigningKeyPem();
    writeFileSync(path, pem, { mode: 0o600 });
  }
  return signingKeyFromPem(pem);
}

/** The key a PEM holds; throws (without echoing the PEM) unless it is an RSA private key (RS256). */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new Error(`not an RSA private key (${privateKey.asymmetricKeyType}); tokens are signed RS256`);
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { n: string; e: string };
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
  return {
    kid: thumbprint,
    privateKey,
    publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid: thumbprint, alg: 'RS256', use: 'sig' },
  };
}
