/**
 * Lowers the calling thread's scheduling priority (nice 19) so work that may wait (the background
 * scrub) yields the CPU to the threads that serve requests. On Linux a nice value belongs to a
 * thread (setpriority on its thread id), so the rest of the process keeps its own; the thread's id
 * is read from /proc/thread-self. Elsewhere nothing changes: false says so.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export const LOWEST_PRIORITY = 19;

export function lowerThisThreadsPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, LOWEST_PRIORITY);
    return true;
  } catch {
    return false;
  }
}
