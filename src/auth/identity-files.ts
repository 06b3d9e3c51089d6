/**
 * Where the built-in identity provider's signing key and development client come from.
 *
 * One instance: `DATA_DIR/idp-signing-key.pem` and `DATA_DIR/dev-client.json`, made on first start.
 * Several instances behind one load balancer must sign and accept the same tokens and know the same
 * client, else a token from one is a 401 on the next: IDP_SIGNING_KEY_FILE and DEV_CLIENT_FILE name
 * shared files (a read-only volume). The platform only reads those, never creates them: instances
 * starting at once would each make their own. `initSharedIdentity` (`npm run identity:init`) makes
 * them once, mode 0600, with an exclusive create so a second run keeps what the first made.
 *
 * Errors name the variable and the path, never the file's content.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { devClientFromJson, loadOrCreateDevClient, newDevClient, type ClientRegistration } from './embedded-idp.js';
import { loadOrCreateSigningKey, newSigningKeyPem, signingKeyFromPem, type SigningKey } from './signing-key.js';

export interface SharedIdentityFiles {
  signingKeyFile: string;
  devClientFile: string;
}

export interface EmbeddedIdentity {
  key: SigningKey;
  devClient: ClientRegistration;
}

/** A shared identity file that is missing, unreadable or holds something else (start-up stops). */
export class IdentityFileError extends Error {
  override readonly name = 'IdentityFileError';
}

const MAKE_THEM = 'make the shared files once with `npm run identity:init` (same variables set)';

function readShared<T>(variable: string, path: string, parse: (text: string) => T, warn: (message: string) => void): T {
  let text: string;
  try {
    const mode = statSync(path).mode;
    // Readable by others is not refused (a Kubernetes secret volume is 0644 unless told otherwise), but said.
    if ((mode & 0o077) !== 0)
      warn(`${variable}: ${path} is readable by group or others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? `no such file; ${MAKE_THEM}`
        : code === 'EACCES'
          ? 'not readable by this process'
          : (code ?? String(error));
    throw new IdentityFileError(`${variable}: ${path}: ${why}`);
  }
  try {
    return parse(text);
  } catch (error) {
    throw new IdentityFileError(`${variable}: ${path}: ${(error as Error).message}`);
  }
}

/** The key and client the built-in provider uses: the shared files when configured, DATA_DIR's otherwise. */
export function loadEmbeddedIdentity(
  dataDir: string,
  shared: SharedIdentityFiles | undefined,
  warn: (message: string) => void,
): EmbeddedIdentity {
  if (!shared) {
    return {
      key: loadOrCreateSigningKey(join(dataDir, 'idp-signing-key.pem')),
      devClient: loadOrCreateDevClient(join(dataDir, 'dev-client.json')),
    };
  }
  return {
    key: readShared('IDP_SIGNING_KEY_FILE', shared.signingKeyFile, signingKeyFromPem, warn),
    devClient: readShared('DEV_CLIENT_FILE', shared.devClientFile, devClientFromJson, warn),
  };
}

/** Writes `content` to `path` unless it exists (exclusive create, 0600); true when this call made it. */
function createOnce(path: string, content: () => string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, content(), { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Makes the shared key and client files that do not exist yet, then loads both as an instance
 * would (so a damaged existing file fails here, before any instance starts). Says what it did per
 * file, never what is in them.
 */
export function initSharedIdentity(
  files: SharedIdentityFiles,
  warn: (message: string) => void,
): { signingKeyFile: 'created' | 'kept'; devClientFile: 'created' | 'kept' } {
  const key = createOnce(files.signingKeyFile, newSigningKeyPem);
  const client = createOnce(files.devClientFile, () => JSON.stringify(newDevClient(), null, 2));
  loadEmbeddedIdentity('', files, warn);
  return { signingKeyFile: key ? 'created' : 'kept', devClientFile: client ? 'created' : 'kept' };
}
