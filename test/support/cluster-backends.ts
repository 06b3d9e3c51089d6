/**
 * The shared engines of a cluster test: EventStoreDB and MongoDB. Real servers when the test's
 * environment names both (`EVENTSTORE_URL`, `MONGODB_URL`), the protocol stand-ins as separate
 * processes when it names neither; naming only one is a mistake the test reports as its reason to skip.
 */
import { randomUUID } from 'node:crypto';
import { startStandInProcess, type StandInProcess } from './standin-process.js';

export type BackendChoice =
  | { mode: 'stand-ins' }
  | { mode: 'real'; eventStoreUrl: string; mongoUrl: string }
  | { mode: 'skip'; reason: string };

export function chooseClusterBackends(env: NodeJS.ProcessEnv = process.env): BackendChoice {
  const eventStoreUrl = env.EVENTSTORE_URL || undefined;
  const mongoUrl = env.MONGODB_URL || undefined;
  if (eventStoreUrl && mongoUrl) return { mode: 'real', eventStoreUrl, mongoUrl };
  if (!eventStoreUrl && !mongoUrl) return { mode: 'stand-ins' };
  const missing = eventStoreUrl ? 'MONGODB_URL' : 'EVENTSTORE_URL';
  return {
    mode: 'skip',
    reason: `a run on real servers needs both EVENTSTORE_URL and MONGODB_URL; ${missing} is not set`,
  };
}

export interface ClusterBackends {
  mode: 'stand-ins' | 'real';
  eventStoreUrl: string;
  mongoUrl: string;
  /**
   * A database of its own per run: on a real server a reused one would hold another run's read
   * models. (The event log cannot be fresh on a real server: the test deletes its rules at the end
   * so that a later run's evaluators do not evaluate them.)
   */
  mongoDatabase: string;
  stop(): Promise<void>;
}

export async function startClusterBackends(choice: Exclude<BackendChoice, { mode: 'skip' }>): Promise<ClusterBackends> {
  const mongoDatabase = `ww_cluster_${randomUUID().slice(0, 8)}`;
  if (choice.mode === 'real') {
    return {
      mode: 'real',
      eventStoreUrl: choice.eventStoreUrl,
      mongoUrl: choice.mongoUrl,
      mongoDatabase,
      stop: async () => {},
    };
  }
  const standIns: StandInProcess[] = [];
  try {
    standIns.push(await startStandInProcess('esdb'), await startStandInProcess('mongo'));
  } catch (error) {
    await Promise.all(standIns.map((s) => s.stop()));
    throw error;
  }
  const [esdb, mongo] = standIns as [StandInProcess, StandInProcess];
  return {
    mode: 'stand-ins',
    eventStoreUrl: esdb.url,
    mongoUrl: mongo.url,
    mongoDatabase,
    stop: async () => void (await Promise.all(standIns.map((s) => s.stop()))),
  };
}
