/**
 * The simulator's shared state in MongoDB (collection `simulator_state`): one document per pin
 * scope and one per paused environment (resuming deletes it). Pins carry their expiry, which
 * `load` filters on; a TTL index collects expired pins (pause documents have no expiry field, so
 * the TTL monitor leaves them alone).
 */
import type { Db } from 'mongodb';
import { sharedCollection } from '../../../readstore/mongodb-shared-collection.js';
import type { MetricPin } from './control.js';
import type { SimulatorStateStore } from './simulator-state-store.js';

export const SIMULATOR_STATE_COLLECTION = 'simulator_state';

type StateDocument =
  | {
      _id: string;
      kind: 'pin';
      envId: string;
      clusterId: string | null;
      metric: string;
      value: number;
      expiresAt: Date;
    }
  | { _id: string; kind: 'pause'; envId: string };

/** A JSON array as the key: no separator an id could contain can make two scopes collide. */
const pinId = (pin: Pick<MetricPin, 'envId' | 'clusterId' | 'metric'>) =>
  JSON.stringify(['pin', pin.envId, pin.clusterId, pin.metric]);
const pauseId = (envId: string) => JSON.stringify(['pause', envId]);

export function createMongoSimulatorState(db: Db): SimulatorStateStore {
  const { collection: state, use } = sharedCollection<StateDocument>(db, SIMULATOR_STATE_COLLECTION, [
    { key: { expiresAt: 1 }, name: 'pin_expiry_ttl', expireAfterSeconds: 0 },
  ]);
  return {
    savePin: (pin) =>
      use(async () => {
        const doc = {
          kind: 'pin' as const,
          envId: pin.envId,
          clusterId: pin.clusterId,
          metric: pin.metric,
          value: pin.value,
          expiresAt: pin.expiresAt,
        };
        await state.replaceOne({ _id: pinId(pin) }, doc, { upsert: true });
      }),
    setPaused: (envId, paused) =>
      use(async () => {
        if (paused) await state.replaceOne({ _id: pauseId(envId) }, { kind: 'pause', envId }, { upsert: true });
        else await state.deleteOne({ _id: pauseId(envId) });
      }),
    load: (now) =>
      use(async () => {
        const docs = await state.find({ $or: [{ kind: 'pause' }, { kind: 'pin', expiresAt: { $gt: now } }] }).toArray();
        return {
          pins: docs.flatMap((doc) =>
            doc.kind === 'pin'
              ? [
                  {
                    envId: doc.envId,
                    clusterId: doc.clusterId,
                    metric: doc.metric,
                    value: doc.value,
                    expiresAt: doc.expiresAt,
                  },
                ]
              : [],
          ),
          paused: docs.flatMap((doc) => (doc.kind === 'pause' ? [doc.envId] : [])),
        };
      }),
  };
}
