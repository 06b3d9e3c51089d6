/**
 * One platform on one DATA_DIR and port, as the crash tests use it: started as a child process,
 * killed with SIGKILL, started again, each time with its clock shifted by CLOCK_OFFSET_SECONDS so
 * that what is due later (a stage, a window's end, an overdue heartbeat) is due without waiting.
 * Each start takes a fresh development token, signed on that start's clock.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess, type PlatformProcess } from './platform-process.js';

/** A start-up is mostly module loading: seconds on a quiet machine, tens of them on a busy one. */
const START_TIMEOUT_MS = 60_000;

export async function restartablePlatform(
  folderPrefix: string,
  env: Record<string, string>,
  { startTimeoutMs = START_TIMEOUT_MS }: { startTimeoutMs?: number } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), folderPrefix));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const settings = {
    DATA_DIR: dataDir,
    PORT: String(port),
    BASE_URL: url,
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    ...env,
  };
  const running: PlatformProcess[] = [];
  let token = '';
  return {
    url,
    dataDir,
    async start(clockOffsetSeconds = 0): Promise<PlatformProcess> {
      const platform = await startPlatformProcess(
        { ...settings, CLOCK_OFFSET_SECONDS: String(clockOffsetSeconds) },
        startTimeoutMs,
      );
      running.push(platform);
      token = await devToken(url, dataDir);
      return platform;
    },
    async kill(platform: PlatformProcess): Promise<void> {
      platform.child.kill('SIGKILL');
      await platform.exited;
    },
    /** The API as the development client (the owner), on the running process. */
    async api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    /** A sample of the running process's own metrics (each process counts from zero). */
    async metric(name: string): Promise<number> {
      const text = await (await fetch(`${url}/metrics`)).text();
      return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    },
    /** Kills whatever still runs (a test's `finally`). */
    async stop(): Promise<void> {
      for (const platform of running) if (platform.child.exitCode === null) platform.child.kill('SIGKILL');
      await Promise.all(running.map((platform) => platform.exited));
    },
  };
}
