/**
 * A stand-in external identity provider for tests: serves a JWKS on loopback and signs tokens
 * with its key, so the platform verifies them through the real koa-jwt + jwks-rsa path.
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';

export const TEST_ISSUER = 'https://idp.test/';
export const TEST_AUDIENCE = 'http://platform.test';

export interface TokenOptions {
  audience?: string;
  issuer?: string;
  expiresInSeconds?: number;
  kid?: string | null;
  /** Sign with another key that the JWKS does not publish. */
  foreignKey?: boolean;
  /** Extra JWS header parameters (e.g. `crit`). */
  header?: Record<string, unknown>;
}

export interface TestIdentityProvider {
  jwksUri: string;
  sign(claims: Record<string, unknown>, options?: TokenOptions): string;
  requests: () => number;
  /** Publishes a new signing key (the old one stays published) and signs with it from now on; its kid. */
  publishNewKey(): string;
  stop(): Promise<void>;
}

export async function startTestIdentityProvider(): Promise<TestIdentityProvider> {
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const published: object[] = [];
  let privateKey: KeyObject;
  let kid: string;
  const publishNewKey = () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    privateKey = pair.privateKey;
    kid = `test-key-${randomUUID().slice(0, 8)}`;
    published.push({ ...(pair.publicKey.export({ format: 'jwk' }) as object), kid, alg: 'RS256', use: 'sig' });
    return kid;
  };
  publishNewKey();
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUri: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    sign(claims, options = {}) {
      const key: KeyObject = options.foreignKey ? foreign : privateKey;
      const header = options.kid === null ? {} : { keyid: options.kid ?? kid };
      return jwt.sign({ sub: `auth0|${randomUUID()}`, ...claims }, key, {
        algorithm: 'RS256',
        audience: options.audience ?? TEST_AUDIENCE,
        issuer: options.issuer ?? TEST_ISSUER,
        expiresIn: options.expiresInSeconds ?? 3600,
        ...header,
        ...(options.header ? { header: { alg: 'RS256', ...options.header } as jwt.JwtHeader } : {}),
      });
    },
    requests: () => requests,
    publishNewKey,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
