/**
 * `npm start` stops cleanly on SIGTERM and SIGINT: node is the process npm starts (no orphaned
 * grandchild holding the port), open SSE streams are ended, the stores are closed, the exit code is
 * 0 within 10 seconds, and the port can be bound again at once.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort } from './support/platform-process.js';
import { connectSse } from './support/sse-client.js';
import { waitFor } from './support/wait-for.js';

const EXIT_BOUND_MS = 10_000;

async function startNpm() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-shutdown-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  let running = true;
  void exited.then(() => (running = false));
  await waitFor(() => output.includes('is listening on') || !running, {
    timeoutMs: 45_000,
    intervalMs: 20,
    message: 'npm start to listen',
  });
  if (!running) throw new Error(`npm start exited: ${output}`);
  return { child, port, url, dataDir, exited, output: () => output };
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test.serial(`${signal} to npm start with an SSE stream open exits 0 within 10 s and releases the port`, async (t) => {
    const platform = await startNpm();
    const token = await devToken(platform.url, platform.dataDir);
    const feed = connectSse(`${platform.url}/api/v1/incidents/stream`, { authorization: `Bearer ${token}` });
    await waitFor(() => feed.status() === 200, { message: 'the feed to open' });

    const sent = Date.now();
    platform.child.kill(signal);
    const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), EXIT_BOUND_MS).unref());
    const exit = await Promise.race([platform.exited, deadline]);
    if (exit === 'timeout') {
      platform.child.kill('SIGKILL');
      t.fail(`npm start still running ${EXIT_BOUND_MS} ms after ${signal}: ${platform.output()}`);
      return;
    }
    t.is(exit.code, 0, platform.output());
    t.true(exit.at - sent < EXIT_BOUND_MS);
    t.true(platform.output().includes(`${signal}: shutting down`), platform.output());
    await feed.close();
    t.true(await portIsFree(platform.port), 'no process holds the port any more');
  });
}

test('docker compose runs the app under an init with npm exec-ed, so docker stop reaches node', (t) => {
  const compose = readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8');
  const app = compose.slice(compose.indexOf('\n  app:'), compose.indexOf('\n  eventstore:'));
  t.regex(app, /^ {4}init: true$/m, 'an init as PID 1 forwards SIGTERM and reaps');
  t.regex(app, /^ {4}command: .*&& exec npm start"?$/m, 'the shell is replaced, not left between the init and npm');
  const start = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start as string;
  t.regex(start, /^exec node /, 'npm start runs node itself, no wrapper process');
});
