/**
 * `npm run identity:init`: makes the built-in identity provider's shared files that a cluster's
 * instances read (IDP_SIGNING_KEY_FILE, DEV_CLIENT_FILE; src/auth/identity-files.ts), once: files
 * that exist are kept and checked. Prints what it did per file, never their content. The compose
 * cluster profile runs it in a one-shot service before the instances start.
 * Exit 0 done, 1 a file cannot be made or read, 2 the variables are not set.
 */
import { ConfigError, loadConfig } from './config.js';
import { Refusal, exitOnCliError } from './cli-refusal.js';
import { initSharedIdentity } from './auth/identity-files.js';

function main(): number {
  const config = loadConfig();
  if (config.auth.mode !== 'embedded' || !config.sharedIdentity) {
    throw new Refusal('identity:init needs IDP_SIGNING_KEY_FILE and DEV_CLIENT_FILE (and no AUTH_JWKS_URI)', 2);
  }
  const files = config.sharedIdentity;
  const done = initSharedIdentity(files, (message) => console.warn(message));
  console.log(`IDP_SIGNING_KEY_FILE ${files.signingKeyFile}: ${done.signingKeyFile}`);
  console.log(`DEV_CLIENT_FILE ${files.devClientFile}: ${done.devClientFile}`);
  return 0;
}

try {
  process.exit(main());
} catch (error) {
  exitOnCliError(
    error instanceof ConfigError || error instanceof Refusal ? error : new Refusal((error as Error).message, 1),
  );
}
