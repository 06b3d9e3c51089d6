/** Starts test/support/data-dir-lock-holder.ts and resolves once the child holds the lock. */
import { spawn, type ChildProcess } from 'node:child_process';
import { nodeEntry } from './node-entry.js';

export async function holdDataDirLockInChild(dir: string): Promise<{ child: ChildProcess; kill: () => Promise<void> }> {
  const child = spawn(process.execPath, [...nodeEntry('test/support/data-dir-lock-holder.ts'), dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never outlive the test process, even when a test fails before it kills the holder.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('locked\n')) resolve();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    void exited.then(() => reject(new Error(`lock holder exited: ${output}`)));
  });
  return {
    child,
    // SIGKILL: the holder gets no chance to clean up, as in a crash or an OOM kill.
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
