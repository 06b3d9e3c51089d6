/**
 * Spawns a protocol stand-in (standin-main.ts) as a separate process, for tests that run several
 * platform processes against one EventStoreDB and one MongoDB. The start is bounded; the child is
 * killed when this process exits, and exits by itself when its stdin (our end of a pipe) closes,
 * which also happens when this process dies without running any handler.
 */
import { waitFor } from './wait-for.js';
import { spawn, type ChildProcess } from 'node:child_process';
import type { StandInKind } from './standin-main.js';
import { nodeEntry } from './node-entry.js';

export interface StandInProcess {
  kind: StandInKind;
  /** esdb: `esdb://127.0.0.1:<port>?tls=false`; mongo: `mongodb://127.0.0.1:<port>/?…` */
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

const ENTRY = new URL('./standin-main.ts', import.meta.url).pathname;

export async function startStandInProcess(kind: StandInKind, timeoutMs = 20_000): Promise<StandInProcess> {
  const child = spawn(process.execPath, [...nodeEntry(ENTRY), kind], { stdio: ['pipe', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => process.off('exit', killOnExit));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${kind} stand-in did not start within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} stand-in exited with ${code} before it listened: ${output}`));
    });
  });
  return {
    kind,
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Closing stdin is the stand-in's own signal to stop; SIGKILL if it has not exited within 5 s.
      child.stdin!.end();
      let gone = false;
      void exited.then(() => (gone = true));
      await waitFor(() => gone, { timeoutMs: 5000, message: `the ${kind} stand-in to exit` }).catch(() =>
        child.kill('SIGKILL'),
      );
      await exited;
    },
  };
}
