/**
 * What the simulator's routes change the state through. Embedded, straight into the in-memory
 * control. With a shared store (a cluster), a change is stored first and answered only then, so
 * every instance picks it up at its next refresh (every SIMULATOR_REFRESH_MS): the evaluator keeps
 * reading the in-memory copy, synchronously, and a pin or pause made through one instance holds on
 * all of them within a refresh.
 */
import type { BackgroundProcess } from '../../../background-process.js';
import type { MetricPin, MetricPinRequest, SimulatorControl, SimulatorStatus } from './control.js';
import type { SimulatorStateStore } from './simulator-state-store.js';

export const SIMULATOR_REFRESH_MS = 1000;

export interface SimulatorSteering {
  pinMetric(request: MetricPinRequest): Promise<MetricPin>;
  setPaused(envId: string, paused: boolean): Promise<SimulatorStatus>;
}

export function localSteering(control: SimulatorControl): SimulatorSteering {
  return {
    pinMetric: async (request) => control.pinMetric(request),
    setPaused: async (envId, paused) => control.setPaused(envId, paused),
  };
}

export interface SharedSteering extends SimulatorSteering {
  /** Replaces the in-memory copy with the stored state. */
  refresh(): Promise<void>;
  /** Refreshes every `refreshMs` while running. */
  process: BackgroundProcess;
}

export function sharedSteering(deps: {
  control: SimulatorControl;
  store: SimulatorStateStore;
  now: () => Date;
  refreshMs?: number;
  onRefreshError?: (error: unknown) => void;
}): SharedSteering {
  const { control, store } = deps;
  // A refresh that read the store before a local change was stored must not undo that change here.
  let changes = 0;
  const refresh = async () => {
    const before = changes;
    const snapshot = await store.load(deps.now());
    if (changes === before) control.replaceState(snapshot);
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    // One refresh at a time: a slow store is not asked again until it answered.
    running ??= refresh()
      .catch((error) => deps.onRefreshError?.(error))
      .finally(() => (running = undefined));
  };
  return {
    async pinMetric(request) {
      const pin = control.pinFor(request);
      await store.savePin(pin);
      changes += 1;
      control.applyPin(pin);
      return pin;
    },
    async setPaused(envId, paused) {
      await store.setPaused(envId, paused);
      changes += 1;
      return control.setPaused(envId, paused);
    },
    refresh,
    process: {
      start() {
        tick();
        timer = setInterval(tick, deps.refreshMs ?? SIMULATOR_REFRESH_MS);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await running;
      },
    },
  };
}
