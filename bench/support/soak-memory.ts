/**
 * Where a process's memory is, for the soak (bench/soak.ts): the kernel's split of its resident
 * memory (/proc/PID/status), and glibc malloc's own figures read through gdb, which tell memory
 * native code holds (SQLite's caches, Buffer and ArrayBuffer stores, zlib, libuv) from memory
 * malloc has freed but keeps (arena fragmentation). V8's heaps do not use malloc, so they are in
 * neither malloc figure.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const MiB = 2 ** 20;
const round = (n: number) => +n.toFixed(1);

/** Resident memory by kind, in MiB: anonymous (heaps, malloc), file-backed (code, mmap), shared (WAL index). */
export function residentMemory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return {
    rss_mib: round(kib('VmRSS')),
    rss_anon_mib: round(kib('RssAnon')),
    rss_file_mib: round(kib('RssFile')),
    rss_shmem_mib: round(kib('RssShmem')),
    threads: readdirSync(`/proc/${pid}/task`).length,
  };
}

/** gdb is a debugging tool: the soak reads malloc's figures only where it is installed. */
export const gdbAvailable = () => {
  if (process.env.BENCH_SOAK_GDB === '0') return false;
  try {
    execFileSync('gdb', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function gdbCall(pid: number, expressions: string[]): string[] {
  const output = execFileSync('gdb', ['-p', String(pid), '-batch', ...expressions.flatMap((e) => ['-ex', e])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 60_000,
  });
  return output.split('\n').filter((line) => line.startsWith('$'));
}

/**
 * glibc's totals over every arena (mallinfo2), in MiB: in use = what native code holds now; free =
 * what malloc keeps in its arenas after it was freed (fragmentation, or memory about to be reused).
 * Stops the process for about a second.
 */
export function mallocFigures(pid: number) {
  const [line] = gdbCall(pid, ['p mallinfo2()']);
  const field = (name: string) => Number(new RegExp(`\\b${name} = (\\d+)`).exec(line ?? '')?.[1] ?? NaN) / MiB;
  return {
    malloc_arena_mib: round(field('arena')),
    malloc_in_use_mib: round(field('uordblks') + field('hblkhd')),
    malloc_free_kept_mib: round(field('fordblks')),
    malloc_mmapped_mib: round(field('hblkhd')),
  };
}

/** Returns free arena memory to the kernel (malloc_trim(0)) and tells how much RSS that gave back. */
export function trimMalloc(pid: number) {
  const before = residentMemory(pid).rss_mib;
  gdbCall(pid, ['p (int)malloc_trim(0)']);
  const after = residentMemory(pid).rss_mib;
  return { rss_before_mib: before, rss_after_mib: after, returned_mib: round(before - after) };
}
