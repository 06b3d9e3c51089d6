/**
 * Where the simulator's pins and pauses are shared between instances (MONGODB_URL set: the
 * MongoDB adapter, mongodb-simulator-state.ts). Embedded, there is no store: the in-memory
 * control (control.ts) is the state.
 */
import type { MetricPin, SimulatorSnapshot } from './control.js';

export interface SimulatorStateStore {
  /** Stores the pin, replacing the pin of the same scope (environment, cluster or none, metric). */
  savePin(pin: MetricPin): Promise<void>;
  setPaused(envId: string, paused: boolean): Promise<void>;
  /** Every pin still live at `now`, and every paused environment. */
  load(now: Date): Promise<SimulatorSnapshot>;
}
