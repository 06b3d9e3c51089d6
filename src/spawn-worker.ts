/**
 * Starts a worker thread on a module next to the caller, from compiled JavaScript or, under tsx,
 * from the TypeScript source: tsx's loader does not reach worker threads (tsx issue 354), so the
 * thread registers it before it loads its entry.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl` is the caller's import.meta.url; `entry` the module's name without extension. */
export function spawnWorker(callerUrl: string, entry: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(callerUrl));
  const url = new URL(`./${entry}${extension}`, callerUrl);
  if (extension !== '.ts') return new Worker(url, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`,
    { ...options, eval: true },
  );
}
