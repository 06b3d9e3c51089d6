/**
 * The simulator's shared steering (src/gateways/warehouse/simulated/simulator-steering.ts): a
 * change is stored before it is applied here, a refresh replaces the local copy with the stored
 * state, and a refresh that read the store before a local change cannot undo it.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import {
  createSimulatorControl,
  type MetricPin,
  type SimulatorSnapshot,
} from '../src/gateways/warehouse/simulated/control.js';
import type { SimulatorStateStore } from '../src/gateways/warehouse/simulated/simulator-state-store.js';
import { sharedSteering } from '../src/gateways/warehouse/simulated/simulator-steering.js';

const now = () => new Date(1_700_000_000_000);

function fakeStore() {
  const pins = new Map<string, MetricPin>();
  const paused = new Set<string>();
  let heldLoad: ((snapshot: SimulatorSnapshot) => void) | undefined;
  const snapshot = (): SimulatorSnapshot => ({ pins: [...pins.values()], paused: [...paused] });
  const store: SimulatorStateStore & { hold(): void; release(): void; pins: typeof pins } = {
    pins,
    async savePin(pin) {
      pins.set(`${pin.envId}/${pin.clusterId}/${pin.metric}`, pin);
    },
    async setPaused(envId, pause) {
      if (pause) paused.add(envId);
      else paused.delete(envId);
    },
    load() {
      const taken = snapshot();
      if (!heldLoad) return Promise.resolve(taken);
      return new Promise((resolve) => (heldLoad = () => resolve(taken)));
    },
    hold: () => (heldLoad = () => undefined),
    release: () => {
      const held = heldLoad;
      heldLoad = undefined;
      held?.({ pins: [], paused: [] });
    },
  };
  return store;
}

test('a pin is stored before it applies; another instance sees it at its refresh, and a pause likewise', async (t) => {
  const store = fakeStore();
  const one = createSimulatorControl({ now });
  const other = createSimulatorControl({ now });
  const steerOne = sharedSteering({ control: one, store, now });
  const steerOther = sharedSteering({ control: other, store, now });
  const envId = randomUUID();
  await steerOne.pinMetric({ envId, metric: 'queue_time_seconds', value: 7, durationSeconds: 60 });
  t.is(store.pins.size, 1);
  const request = { envId, metric: 'queue_time_seconds', windowMinutes: 5 };
  t.is(one.pinnedValue(request), 7);
  t.is(other.pinnedValue(request), undefined, 'not before its refresh');
  await steerOther.refresh();
  t.is(other.pinnedValue(request), 7);
  await steerOther.setPaused(envId, true);
  await steerOne.refresh();
  t.true(one.isPaused(envId));
  t.throws(() => one.pinnedValue(request), { message: /paused/ });
});

test('an invalid pin is refused before anything is stored', async (t) => {
  const store = fakeStore();
  const steering = sharedSteering({ control: createSimulatorControl({ now }), store, now });
  await t.throwsAsync(
    steering.pinMetric({ envId: randomUUID(), metric: 'no_such_metric', value: 1, durationSeconds: 60 }),
  );
  t.is(store.pins.size, 0);
});

test('a refresh that read the store before a local change does not undo it', async (t) => {
  const store = fakeStore();
  const control = createSimulatorControl({ now });
  const steering = sharedSteering({ control, store, now });
  const envId = randomUUID();
  store.hold();
  const refreshing = steering.refresh();
  await steering.setPaused(envId, true);
  store.release();
  await refreshing;
  t.true(control.isPaused(envId), 'the stale snapshot was dropped');
  await steering.refresh();
  t.true(control.isPaused(envId));
});
