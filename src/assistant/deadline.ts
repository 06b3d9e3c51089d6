/**
 * A signal that aborts after `ms`, or as soon as one of its parents aborts. Built from a plain
 * timer rather than `AbortSignal.timeout` + `AbortSignal.any`: with those, a tool's 100 ms timeout
 * once never fired here (the answer's 10 s deadline ended the test instead). The likely cause is
 * that a composite signal does not keep its timeout source alive, so the source can be collected
 * before it fires; a standalone repro did not show it. A pending timer is a GC root, so this one
 * always fires.
 * `dispose` clears the timer and the parent listeners once the work is done.
 */
export interface Deadline {
  signal: AbortSignal;
  dispose(): void;
}

export function deadline(ms: number, parents: readonly AbortSignal[] = []): Deadline {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, ms);
  for (const parent of parents) {
    if (parent.aborted) abort();
    else parent.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      for (const parent of parents) parent.removeEventListener('abort', abort);
    },
  };
}
