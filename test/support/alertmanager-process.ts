/**
 * Debian's real Prometheus Alertmanager (/usr/bin/prometheus-alertmanager) for acceptance tests:
 * started on a random loopback port with its own storage directory, no cluster listener and the
 * test's configuration, waited for until its API answers, and killed (its directory removed) by
 * `stop`. `available` says whether the binary is installed (tests skip, saying why, without it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

export const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
export const alertmanagerAvailable = () => existsSync(ALERTMANAGER);
export const alertmanagerSkipReason = `${ALERTMANAGER} is not installed (Debian package prometheus-alertmanager)`;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export interface RunningAlertmanager {
  /** Its API v2 base, e.g. http://127.0.0.1:<port>/api/v2. */
  api: string;
  /** What it wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Posts alerts to its API (200 expected). */
  postAlerts(alerts: unknown): Promise<Response>;
  stop(): Promise<void>;
}

/** Starts Alertmanager with this configuration (alertmanager.yml text). */
export async function startAlertmanager(config: string): Promise<RunningAlertmanager> {
  const port = await freePort();
  const storage = mkdtempSync(join(tmpdir(), 'ww-alertmanager-'));
  const configFile = join(storage, 'alertmanager.yml');
  writeFileSync(configFile, config);
  let output = '';
  const child: ChildProcess = spawn(
    ALERTMANAGER,
    [
      `--config.file=${configFile}`,
      `--storage.path=${join(storage, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(storage, { recursive: true, force: true });
  };
  const api = `http://127.0.0.1:${port}/api/v2`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`Alertmanager exited: ${output}`);
        return fetch(`${api}/status`).then(
          (answer) => answer.ok,
          () => false,
        );
      },
      { timeoutMs: 30_000, intervalMs: 100, message: 'Alertmanager to listen' },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    api,
    output: () => output,
    postAlerts: (alerts) =>
      fetch(`${api}/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      }),
    stop,
  };
}
