/**
 * `npx tsx src/openapi-cli.ts [file]`: writes the OpenAPI document (as GET /openapi.json serves it)
 * to the file, or to stdout, without a running platform: one starts on a random loopback port over
 * a throwaway DATA_DIR (the document is built from the routers as served) and stops again.
 * BASE_URL is read from the environment like `npm start` does (it becomes the document's server).
 * For the linter: `npx tsx src/openapi-cli.ts /tmp/openapi.json && npx --yes @redocly/cli@latest lint /tmp/openapi.json`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.js';
import { startPlatform } from './platform.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ww-openapi-'));
try {
  // The platform here listens on a random port; the document names the address the configured one would have.
  const baseUrl = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const config = loadConfig({
    ...process.env,
    BASE_URL: baseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SYNC_SCHEDULER: 'off',
  });
  const platform = await startPlatform(config);
  try {
    const document = await (await fetch(`${platform.url}/openapi.json`)).text();
    const file = process.argv[2];
    if (file) writeFileSync(file, `${document}\n`);
    else process.stdout.write(`${document}\n`);
  } finally {
    await platform.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
