/**
 * Remembers the first time a read or append of the log met a damaged page, for /health: the
 * platform keeps serving the streams it can read, but the damage stays reported (until a restart
 * after the file is recovered), because only an operator can repair it.
 */
import { isDamagedFileError } from '../sqlite/damaged-file.js';
import type { EventStore } from './port.js';

export interface LogDamage {
  since: Date;
  error: string;
}

export function detectingLogDamage(
  store: EventStore,
  now: () => Date = () => new Date(),
): { store: EventStore; damage: () => LogDamage | undefined } {
  let damage: LogDamage | undefined;
  const watched = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (isDamagedFileError(error)) damage ??= { since: now(), error: (error as Error).message };
      throw error;
    }
  };
  return {
    damage: () => damage,
    store: {
      ...store,
      append: (...args) => watched(store.append(...args)),
      readStream: (...args) => watched(store.readStream(...args)),
      readAll: (...args) => watched(store.readAll(...args)),
      headPosition: () => watched(store.headPosition()),
      subscribeToAll: (...args) => store.subscribeToAll(...args),
      setStreamRetention: (...args) => store.setStreamRetention(...args),
      chainStart: () => store.chainStart(),
      hasRetention: (...args) => store.hasRetention(...args),
      ping: () => store.ping(),
      close: () => store.close(),
    },
  };
}
