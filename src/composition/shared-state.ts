/**
 * The state instances of a cluster must share besides the event log and the read models: stream
 * tickets (a ticket issued by one instance is redeemed on whichever the load balancer picks) and
 * the simulator's pins and pauses. With MONGODB_URL set they live in that MongoDB database; the
 * embedded default keeps them in this process's memory (one instance per DATA_DIR).
 */
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import type { SimulatorStateStore } from '../gateways/warehouse/simulated/simulator-state-store.js';
import { createMemoryStreamTicketStore } from '../stream-tickets/memory.js';
import type { StreamTicketStore } from '../stream-tickets/store.js';

export interface SharedState {
  /** The shared MongoDB database (absent: embedded stores); cluster leases live there too. */
  db?: Db;
  tickets: StreamTicketStore;
  /** Absent: the simulator's state is this process's own. */
  simulatorState?: SimulatorStateStore;
  close(): Promise<void>;
}

export async function openSharedState(
  config: Pick<Config, 'mongodb' | 'limits'>,
  now: () => Date,
): Promise<SharedState> {
  const limits = {
    now,
    perPrincipal: config.limits.streamTicketsPerPrincipal,
    perTenant: config.limits.streamTicketsPerTenant,
  };
  if (!config.mongodb) return { tickets: createMemoryStreamTicketStore(limits), close: async () => {} };
  // The driver and the MongoDB stores are loaded only when MONGODB_URL is set (seconds of start-up otherwise).
  const [{ MongoClient }, { createMongoStreamTicketStore }, { createMongoSimulatorState }] = await Promise.all([
    import('mongodb'),
    import('../stream-tickets/mongodb.js'),
    import('../gateways/warehouse/simulated/mongodb-simulator-state.js'),
  ]);
  // A client of its own (the read store's is behind its port); the driver connects on first use.
  const client = new MongoClient(config.mongodb.url, { ignoreUndefined: true });
  const db = client.db(config.mongodb.database);
  return {
    db,
    tickets: createMongoStreamTicketStore(db, limits),
    simulatorState: createMongoSimulatorState(db),
    close: () => client.close(),
  };
}
