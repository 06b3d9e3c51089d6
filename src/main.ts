/**
 * `npm start`: reads the configuration, starts the platform and prints how to use it.
 * A bad configuration stops start-up with one line naming the variable.
 */
import { ConfigError, loadConfig } from './config.js';
import { acquireDataDirLock } from './eventstore/data-dir-lock.js';
import { ensurePrivateDirectory } from './eventstore/private-files.js';
import { startPlatform } from './platform.js';

/** `docker stop` waits 10 s before SIGKILL; the platform stops well within it. */
const SHUTDOWN_BOUND_MS = 9_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // DATA_DIR holds the identity provider's key even when the stores are servers: owner-only.
  ensurePrivateDirectory(config.dataDir);
  // The embedded event store is single-instance: hold DATA_DIR's lock for this process's life, so
  // a second platform on the same directory stops here instead of failing this one's writes.
  const releaseDataDir = config.eventStoreUrl ? undefined : acquireDataDirLock(config.dataDir);
  const offset = config.clockOffsetMs;
  const platform = await startPlatform(config, offset === 0 ? {} : { now: () => new Date(Date.now() + offset) });
  const lines = [
    `warehouse-watch is listening on ${config.baseUrl} (bound to ${config.host}:${new URL(platform.url).port})`,
  ];
  if (platform.devClient && config.sharedIdentity) {
    // A shared client's secret stays in its file: several instances would each print it to their logs.
    const c = platform.devClient;
    lines.push(
      '',
      `Development client (tenant ${c.tenant_id}, environment ${c.env_id}, role owner): client_id=${c.client_id}`,
      `  its secret is in DEV_CLIENT_FILE (${config.sharedIdentity.devClientFile}); it is not printed`,
      '',
      `Dashboard: ${config.baseUrl}/`,
    );
  } else if (platform.devClient) {
    const c = platform.devClient;
    lines.push(
      '',
      `Development client (tenant ${c.tenant_id}, environment ${c.env_id}, role owner):`,
      `  client_id=${c.client_id}  client_secret=${c.client_secret}`,
      '',
      'Get a token and list notification channels:',
      `  TOKEN=$(curl -s -X POST ${config.baseUrl}/oauth/token -H 'Content-Type: application/json' \\`,
      `    -d '{"grant_type":"client_credentials","client_id":"${c.client_id}","client_secret":"${c.client_secret}","audience":"${config.baseUrl}"}' \\`,
      `    | node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); if (!r.access_token) { console.error(r.error + ": " + r.error_description); process.exit(1) } console.log(r.access_token)') \\`,
      `    && curl -s ${config.baseUrl}/api/v1/notification-channels -H "Authorization: Bearer $TOKEN"`,
      '',
      `Dashboard: ${config.baseUrl}/ (sign in by pasting the client_id=… client_secret=… line above)`,
    );
  } else {
    lines.push(
      `Tokens come from the identity provider ${config.auth.issuer} (audience ${config.baseUrl}).`,
      `Dashboard: ${config.baseUrl}/ (sign in with such a token)`,
    );
  }
  console.log(lines.join('\n'));

  // Drain in-flight requests, close SSE streams, flush and close the stores, exit 0; a stop that
  // hangs past SHUTDOWN_BOUND_MS exits 1 rather than leaving a process nobody waits for.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    setTimeout(() => {
      console.error(`shutdown did not finish within ${SHUTDOWN_BOUND_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_BOUND_MS).unref();
    try {
      await platform.stop();
    } catch (error) {
      console.error('shutdown failed:', error instanceof Error ? error.message : error);
      process.exit(1);
    }
    releaseDataDir?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

// A promise nobody handled is a bug, not a reason to stop serving: log it loudly and go on.
process.on('unhandledRejection', (reason) => {
  console.error(
    JSON.stringify({ level: 50, msg: 'unhandled promise rejection', err: String((reason as Error)?.stack ?? reason) }),
  );
});

main().catch((error) => {
  console.error('start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
