/**
 * A clock and timers in virtual time, shared by several simulated processes: `advanceTo` fires
 * every due timer in time order, moving the clock to each one's moment and awaiting whatever its
 * callback returns (a renewal round's real I/O), so a test runs minutes of leases without sleeping.
 * Each process gets its own group of timers; `halt(group)` is a `kill -9` of that process: its
 * pending timers never fire and it can set no new ones. `pause(group)` is a SIGSTOP: its timers
 * stay pending and fire, overdue, once `resume(group)` is called.
 */
export interface VirtualTimers {
  setTimeout(callback: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface PendingTimer {
  at: number;
  order: number;
  group: string;
  callback: () => unknown;
}

export function virtualClock(start = Date.parse('2026-03-01T12:00:00.000Z')) {
  let current = start;
  let order = 0;
  const pending = new Map<number, PendingTimer>();
  const halted = new Set<string>();
  const paused = new Set<string>();

  const due = (until: number) =>
    [...pending.entries()]
      .filter(([, timer]) => timer.at <= until && !paused.has(timer.group))
      .sort(([, a], [, b]) => a.at - b.at || a.order - b.order)[0];

  return {
    now: () => new Date(current),
    get epochMs() {
      return current;
    },
    timers(group: string): VirtualTimers {
      return {
        setTimeout(callback, ms) {
          const id = ++order;
          if (!halted.has(group)) pending.set(id, { at: current + Math.max(0, ms), order: id, group, callback });
          return id;
        },
        clearTimeout(handle) {
          pending.delete(handle as number);
        },
      };
    },
    halt(group: string): void {
      halted.add(group);
      for (const [id, timer] of pending) if (timer.group === group) pending.delete(id);
    },
    pause(group: string): void {
      paused.add(group);
    },
    resume(group: string): void {
      paused.delete(group);
    },
    /** Fires every timer due up to `target` (each callback's result awaited), then sets the clock to `target`. */
    async advanceTo(target: number): Promise<void> {
      for (let next = due(target); next; next = due(target)) {
        const [id, timer] = next;
        pending.delete(id);
        current = Math.max(current, timer.at);
        await timer.callback();
      }
      current = Math.max(current, target);
    },
    async advance(ms: number): Promise<void> {
      await this.advanceTo(current + ms);
    },
  };
}

export type VirtualClock = ReturnType<typeof virtualClock>;
