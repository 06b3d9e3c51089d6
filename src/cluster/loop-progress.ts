/**
 * Whether a work loop (the evaluator's ticks, the escalation's reconciles) is making progress: each
 * unit of work says when it begins and ends, and the oldest one still running tells how long the
 * loop may have been stuck. A loop that is idle between units is not stuck.
 */

export interface LoopProgress {
  readonly name: string;
  /** Marks a unit of work begun now; call the answer when it ends (however it ends). */
  begin(): () => void;
  /** When the oldest unit still running began (epoch ms); null while none runs. */
  busySince(): number | null;
}

export function loopProgress(name: string, now: () => number): LoopProgress {
  const running = new Map<number, number>();
  let next = 0;
  return {
    name,
    begin() {
      const id = next++;
      running.set(id, now());
      return () => void running.delete(id);
    },
    busySince() {
      let oldest: number | null = null;
      for (const startedAt of running.values()) if (oldest === null || startedAt < oldest) oldest = startedAt;
      return oldest;
    },
  };
}
