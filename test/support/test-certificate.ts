/**
 * A throwaway certificate authority and a signing certificate it issued, made with openssl in a
 * temporary directory (removed at once): what a stand-in for Amazon SNS serves at its
 * SigningCertURL, and the key that signs the test's messages.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  /** The signing certificate (PEM), issued by the test CA. */
  certificatePem: string;
  /** Its private key (PEM). */
  keyPem: string;
  caPem: string;
}

/**
 * `subjectAltName` (an openssl value such as `IP:127.0.0.1`) makes the certificate one a TLS client
 * accepts for that address (a server certificate); without it, a signing certificate.
 */
export function makeTestCertificate(
  commonName = 'sns.test-region.amazonaws.com',
  subjectAltName?: string,
): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'ww-test-ca-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=warehouse-watch test CA',
    );
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      at('leaf.key'),
      '-out',
      at('leaf.csr'),
      '-subj',
      `/CN=${commonName}`,
    );
    const altName = subjectAltName ? `subjectAltName=${subjectAltName}\nextendedKeyUsage=serverAuth\n` : '';
    writeFileSync(at('ext.cnf'), `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n${altName}`);
    openssl(
      'x509',
      '-req',
      '-in',
      at('leaf.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at('leaf.pem'),
      '-days',
      '2',
      '-extfile',
      at('ext.cnf'),
    );
    return {
      certificatePem: readFileSync(at('leaf.pem'), 'utf8'),
      keyPem: readFileSync(at('leaf.key'), 'utf8'),
      caPem: readFileSync(at('ca.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
