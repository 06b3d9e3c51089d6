/**
 * The simulator's shared state in MongoDB (collection `simulator_state`): one document per pin
 * scope and one per paused environment (resuming deletes it). Pins carry their expiry, which
 * `load` filters on; a TTL index collects expired pins (pause documents have no expiry field, so
 * the TTL monitor leaves them alone).
 */
import type { Db } from 'mongodb';
import { translateMongoError } from '../../../readstore/mongodb-errors.js';
import type { MetricPin } from './control.js';
import type { SimulatorStateStore } from './simulator-state-store.js';

export const SIMULATOR_STATE_COLLECTION = 'simulator_state';

type StateDocument =
  | { _id: string; kind: 'pin'; envId: string; clusterId: string | null; metric: string; value: number; expiresAt: Date }
  | { _id: string; kind: 'pause'; envId: string };

/** A JSON array as the key: no separator an id could contain can make two scopes collide. */
const pinId = (pin: Pick<MetricPin, 'envId' | 'clusterId' | 'metric'>) => JSON.stringify(['pin', pin.envId, pin.clusterId, pin.metric]);
const pauseId = (envId: string) => JSON.stringify(['pause', envId]);

export function createMongoSimulatorState(db: Db): SimulatorStateStore {
  const state = db.collection<StateDocument>(SIMULATOR_STATE_COLLECTION);
  let indexed: Promise<unknown> | undefined;
  const ensureIndexes = () => (indexed ??= state.createIndexes([{ key: { expiresAt: 1 }, name: 'pin_expiry_ttl', expireAfterSeconds: 0 }]).catch((error) => {
    indexed = undefined;
    throw error;
  }));
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw translateMongoError(error, SIMULATOR_STATE_COLLECTION);
    }
  };
  return {
    savePin: (pin) => guarded(async () => {
      await ensureIndexes();
      const doc = { kind: 'pin' as const, envId: pin.envId, clusterId: pin.clusterId, metric: pin.metric, value: pin.value, expiresAt: pin.expiresAt };
      await state.replaceOne({ _id: pinId(pin) }, doc, { upsert: true });
    }),
    setPaused: (envId, paused) => guarded(async () => {
      if (paused) await state.replaceOne({ _id: pauseId(envId) }, { kind: 'pause', envId }, { upsert: true });
      else await state.deleteOne({ _id: pauseId(envId) });
    }),
    load: (now) => guarded(async () => {
      const docs = await state.find({ $or: [{ kind: 'pause' }, { kind: 'pin', expiresAt: { $gt: now } }] }).toArray();
      return {
        pins: docs.flatMap((doc) => (doc.kind === 'pin' ? [{ envId: doc.envId, clusterId: doc.clusterId, metric: doc.metric, value: doc.value, expiresAt: doc.expiresAt }] : [])),
        paused: docs.flatMap((doc) => (doc.kind === 'pause' ? [doc.envId] : [])),
      };
    }),
  };
}
