import type { PlatformMetrics } from '../metrics.js';
import { isWrongExpectedRevision, type EventStore } from './port.js';

/** Decorates any event store with append latency and conflict metrics. */
export function instrumentedEventStore(store: EventStore, metrics: PlatformMetrics): EventStore {
  return {
    ...store,
    async append(stream, events, options) {
      const stop = metrics.appendDuration.startTimer();
      try {
        return await store.append(stream, events, options);
      } catch (error) {
        if (isWrongExpectedRevision(error)) metrics.appendConflicts.inc();
        throw error;
      } finally {
        stop();
      }
    },
    readStream: (...args) => store.readStream(...args),
    readAll: (...args) => store.readAll(...args),
    subscribeToAll: (...args) => store.subscribeToAll(...args),
    headPosition: () => store.headPosition(),
    setStreamRetention: (...args) => store.setStreamRetention(...args),
    chainStart: () => store.chainStart(),
    hasRetention: (...args) => store.hasRetention(...args),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
