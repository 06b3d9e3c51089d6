/**
 * Start-up as `npm start` runs it (src/start.mjs: the compiled build, cached): from spawn to the
 * first 200 from /health/live, on a fresh DATA_DIR and again on the same one (a restart), with the
 * process's own CPU seconds at that moment (from /proc, so a loaded machine shows as wall time well
 * above CPU time) and the load average around each run. Writes bench/results/startup.json.
 *
 *   npx tsx bench/startup.ts            (BENCH_RUNS=5 by default)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/platform-process.js';
import { machine } from './support/machine.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds (fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function startOnce(dataDir: string) {
  const port = await freePort();
  const load = loadavg()[0]!;
  const started = performance.now();
  const child = spawn(process.execPath, ['src/start.mjs'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - started > 120_000)
        throw new Error('the platform did not answer /health/live within 120 s');
      const ok = await fetch(`http://127.0.0.1:${port}/health/live`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { wall_s: (performance.now() - started) / 1000, cpu_s: cpuSeconds(child.pid!), load_1m: load };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const runs: { kind: 'fresh' | 'restart'; wall_s: number; cpu_s: number; load_1m: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-bench-startup-'));
  try {
    runs.push({ kind: 'fresh', ...(await startOnce(dataDir)) });
    runs.push({ kind: 'restart', ...(await startOnce(dataDir)) });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const summary = (kind: string) => {
  const of = runs.filter((r) => r.kind === kind);
  const sorted = (key: 'wall_s' | 'cpu_s') => of.map((r) => r[key]).sort((a, b) => a - b);
  return {
    runs: of.length,
    wall_s: { min: sorted('wall_s')[0], max: sorted('wall_s').at(-1) },
    cpu_s: { min: sorted('cpu_s')[0], max: sorted('cpu_s').at(-1) },
  };
};
const result = {
  at: new Date().toISOString(),
  machine: machine(),
  fresh: summary('fresh'),
  restart: summary('restart'),
  runs,
};
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'startup.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(
  JSON.stringify({ fresh: result.fresh, restart: result.restart, load: runs.map((r) => r.load_1m.toFixed(1)) }),
);
