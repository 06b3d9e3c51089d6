import { validateEventData } from '../events/catalogue.js';
import type { EventStore } from './port.js';

/**
 * Every event is checked against its catalogue schema before it is appended, whoever appends it
 * (command handler, evaluator, process managers): nothing unknown or malformed reaches the log.
 */
export function validatingEventStore(store: EventStore): EventStore {
  return {
    ...store,
    async append(stream, events, options) {
      const validated = events.map((event) => ({ ...event, data: validateEventData(event.type, event.data) }));
      return store.append(stream, validated, options);
    },
  };
}
