/**
 * A promise that settles like `work`, or rejects with "no answer within N ms" if `work` has not
 * settled by then. The work itself is not cancelled (health checks and store opens cannot be);
 * its eventual outcome is ignored. The timer is cleared either way, so it never holds a process.
 */
export class TimedOut extends Error {
  override readonly name = 'TimedOut';
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(ms)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
