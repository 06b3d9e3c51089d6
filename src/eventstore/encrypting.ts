import { isSealed, type SecretBox } from '../secrets/secret-box.js';
import type { EventStore, RecordedEvent, Subscription } from './port.js';

/** Per event type: the event's data with each secret field replaced (the model says which fields). */
export type SecretFieldsByEventType = Record<
  string,
  (data: Record<string, unknown>, replace: (secret: string) => string) => Record<string, unknown>
>;

/**
 * Opens an event's secret fields (a no-op for types without any): what encryptingEventStore does on
 * every read, for a reader that opens only the events it uses (the projections on the writer thread).
 */
export function openingSecrets(box: SecretBox, secretFields: SecretFieldsByEventType) {
  return (event: RecordedEvent): RecordedEvent => {
    const fields = secretFields[event.type];
    return fields
      ? { ...event, data: fields(event.data, (value) => (isSealed(value) ? box.open(value) : value)) }
      : event;
  };
}

/**
 * Secret fields are sealed on append and opened on every read and subscription delivery, so
 * deciders, projections and queries see plain values while the log itself (and any copy or
 * backup of it) holds only ciphertext. Values written before this existed are plain and are
 * read as they are.
 */
export function encryptingEventStore(
  store: EventStore,
  box: SecretBox,
  secretFields: SecretFieldsByEventType,
): EventStore {
  const open = openingSecrets(box, secretFields);
  return {
    append(stream, events, options) {
      const sealed = events.map((event) => {
        const fields = secretFields[event.type];
        return fields ? { ...event, data: fields(event.data, (value) => box.seal(value)) } : event;
      });
      return store.append(stream, sealed, options);
    },
    readStream: async (...args) => (await store.readStream(...args)).map(open),
    readAll: async (...args) => (await store.readAll(...args)).map(open),
    subscribeToAll(options): Subscription {
      const inner = store.subscribeToAll(options);
      return {
        close: () => inner.close(),
        async *[Symbol.asyncIterator]() {
          for await (const event of inner) yield open(event);
        },
      };
    },
    headPosition: () => store.headPosition(),
    setStreamRetention: (...args) => store.setStreamRetention(...args),
    chainStart: () => store.chainStart(),
    hasRetention: (...args) => store.hasRetention(...args),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
