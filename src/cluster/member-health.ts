/**
 * The edge of the lease decision (lease-decision.ts): probes the event log and the read store on a
 * timer of its own, notes when each last answered, and hands the decider those facts with the
 * refused appends and the work loops' progress whenever the membership asks. A probe still
 * unanswered after the bound is abandoned and another one started, so a link that comes back is
 * seen at the next probe even when the first one hangs.
 */
import { decideLease, type HealthBounds, type LeaseDecision, type MemberHealthFacts } from './lease-decision.js';
import type { LoopProgress } from './loop-progress.js';

/** How often the stores are probed: a fault is seen within this of its start. */
export const PROBE_EVERY_MS = 1000;

export interface MemberHealthOptions {
  now: () => number;
  bounds: HealthBounds;
  /** A read of the event log (its ping); resolves when it answered. */
  probeLog: () => Promise<void>;
  /** A read of the read store (its ping). */
  probeStore: () => Promise<void>;
  /** The log's refused appends (its append tracker), null: none. */
  appendsRefused: () => { since: number; lastAt: number } | null;
  loops: readonly LoopProgress[];
}

export interface MemberHealth {
  /** The membership's question at every renewal round. */
  assess(holding: boolean): LeaseDecision;
  start(): void;
  stop(): void;
}

interface Probe {
  okAt: number | null;
  startedAt: number | null;
}

export function createMemberHealth(options: MemberHealthOptions): MemberHealth {
  const { now, bounds } = options;
  /** From the start of the probes: a store not answered yet is judged from here, not from composition. */
  let watchingSince = now();
  const log: Probe = { okAt: null, startedAt: null };
  const store: Probe = { okAt: null, startedAt: null };
  let timer: NodeJS.Timeout | undefined;

  function probe(state: Probe, read: () => Promise<void>): void {
    const at = now();
    if (state.startedAt !== null && at - state.startedAt <= bounds.unreachableMs) return;
    state.startedAt = at;
    read().then(
      () => {
        state.okAt = Math.max(state.okAt ?? 0, now());
        state.startedAt = null;
      },
      () => {
        state.startedAt = null;
      },
    );
  }

  const probeAll = () => {
    probe(log, options.probeLog);
    probe(store, options.probeStore);
  };

  return {
    assess(holding) {
      const facts: MemberHealthFacts = {
        now: now(),
        holding,
        watchingSince,
        logReadOkAt: log.okAt,
        appendsRefused: options.appendsRefused(),
        storeReadOkAt: store.okAt,
        loops: options.loops.map((loop) => ({ name: loop.name, busySince: loop.busySince() })),
      };
      return decideLease(facts, bounds);
    },
    start() {
      if (timer) return;
      watchingSince = now();
      probeAll();
      timer = setInterval(probeAll, PROBE_EVERY_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
