/** Runs the platform as a real child process (`src/main.ts` under tsx, or `npm start`'s compiled entry) for crash and start-up tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { nodeEntry } from './node-entry.js';
import { PGLITE_TEMPLATE_DIR } from './pglite-template-dir.js';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PlatformProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Preloaded by `exitWithParent`: the child stops (SIGTERM) when its stdin pipe closes. */
const EXIT_WITH_PARENT = new URL('./exit-with-parent.mjs', import.meta.url).href;

/**
 * `nodeArguments` default to the TypeScript entry under tsx; `['src/start.mjs']` is what `npm start` runs.
 * `fileSizeLimitKiB` caps every file the process writes (`ulimit -f`): a disk that fills up there.
 * `exitWithParent`: the child is killed when this process exits, and stops by itself when this
 * process dies without running exit handlers (kill -9): long multi-process tests leave nothing behind.
 */
export async function startPlatformProcess(
  env: Record<string, string>,
  // A deadline, not a wait: at load 8–15 a start under tsx took 25 s; ready processes return at once.
  timeoutMs = 120_000,
  nodeArguments = nodeEntry('src/main.ts'),
  fileSizeLimitKiB?: number,
  { exitWithParent = false }: { exitWithParent?: boolean } = {},
): Promise<PlatformProcess> {
  const nodeArgs = exitWithParent ? ['--import', EXIT_WITH_PARENT, ...nodeArguments] : nodeArguments;
  const [command, args] =
    fileSizeLimitKiB === undefined
      ? [process.execPath, nodeArgs]
      : ['bash', ['-c', `ulimit -f ${fileSizeLimitKiB} && exec "$0" "$@"`, process.execPath, ...nodeArgs]];
  const child = spawn(command, args, {
    // No background scrub unless the test asks (SCRUB_INTERVAL_HOURS): its thread costs every start.
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      SCRUB_INTERVAL_HOURS: '0',
      SYNC_EMBEDDED_TEMPLATE_DIR: PGLITE_TEMPLATE_DIR,
      ...env,
    },
    stdio: [exitWithParent ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (exitWithParent) {
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
  }
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    // A process that did not start in time is killed: left running, it would keep ava's worker alive.
    const timer = setTimeout(
      () => (child.kill('SIGKILL'), reject(new Error(`platform did not start in ${timeoutMs} ms: ${output}`))),
      timeoutMs,
    );
    const check = () => {
      if (output.includes('is listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!output.includes('is listening on')) reject(new Error(`platform exited with ${code}: ${output}`));
    });
  });
  return { child, output: () => output, exited };
}

export async function devToken(baseUrl: string, dataDir: string): Promise<string> {
  const client = JSON.parse(readFileSync(join(dataDir, 'dev-client.json'), 'utf8'));
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: baseUrl,
    }),
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
