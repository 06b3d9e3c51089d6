/**
 * Remembers whether the event store refuses appends: from a failed append (a conflict is an
 * answer, not a refusal) until the next one succeeds. A store can answer pings while every write
 * fails (a full disk), so /health asks this, not only the ping.
 */
import { isWrongExpectedRevision, type EventStore } from './port.js';

export interface AppendRefusal {
  since: Date;
  /** The latest refused append (a member out of the cluster tries none, so its refusal grows old). */
  lastAt: Date;
  error: string;
  refused: number;
}

export function trackingAppendRefusals(
  store: EventStore,
  now: () => Date = () => new Date(),
): { store: EventStore; refusal: () => AppendRefusal | undefined } {
  let refusal: AppendRefusal | undefined;
  return {
    refusal: () => refusal,
    // `store` is a plain object (the decorators below it build them), so spreading keeps its methods.
    store: {
      ...store,
      async append(stream, events, options) {
        try {
          const result = await store.append(stream, events, options);
          refusal = undefined;
          return result;
        } catch (error) {
          if (!isWrongExpectedRevision(error)) {
            const at = now();
            refusal = {
              since: refusal?.since ?? at,
              lastAt: at,
              error: (error as Error).message,
              refused: (refusal?.refused ?? 0) + 1,
            };
          }
          throw error;
        }
      },
    },
  };
}
