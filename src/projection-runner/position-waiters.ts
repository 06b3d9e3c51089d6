/** Promises that resolve when a position has been reached, or false after a deadline. */
export function positionWaiters() {
  let reached = -1n;
  const waiting = new Set<{ position: bigint; resolve: (ok: boolean) => void; timer: NodeJS.Timeout }>();
  return {
    get reached() {
      return reached;
    },
    advance(position: bigint) {
      if (position > reached) reached = position;
      for (const waiter of waiting) {
        if (waiter.position <= reached) {
          clearTimeout(waiter.timer);
          waiting.delete(waiter);
          waiter.resolve(true);
        }
      }
    },
    waitFor(position: bigint, timeoutMs: number): Promise<boolean> {
      if (position <= reached) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve,
          timer: setTimeout(() => {
            waiting.delete(waiter);
            resolve(false);
          }, timeoutMs),
        };
        waiting.add(waiter);
      });
    },
    cancelAll() {
      for (const waiter of waiting) {
        clearTimeout(waiter.timer);
        waiter.resolve(false);
      }
      waiting.clear();
    },
  };
}
