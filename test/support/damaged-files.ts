/** For the damaged-file tests: a platform process over a temporary DATA_DIR (removed afterwards). */
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess, type PlatformProcess } from './platform-process.js';

export { PAGE, zeroPage } from './zero-page.js';

export async function platformInTempDir(t: ExecutionContext, prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let running: PlatformProcess | undefined;
  t.teardown(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    baseUrl,
    /** Starts the platform; resolves with the headers of a development-client token. */
    async start() {
      running = await startPlatformProcess({
        DATA_DIR: dataDir,
        PORT: String(port),
        BASE_URL: baseUrl,
        LOG_LEVEL: 'fatal',
      });
      return { authorization: `Bearer ${await devToken(baseUrl, dataDir)}`, 'content-type': 'application/json' };
    },
    /** SIGTERM (a clean stop copies the WAL into the database); resolves with the exit code. */
    async stop() {
      running!.child.kill('SIGTERM');
      const code = await running!.exited;
      running = undefined;
      return code;
    },
  };
}
