import type { RecordedEvent } from '../eventstore/port.js';
import type { IndexSpec, ReadModelWriter } from '../readstore/port.js';

/**
 * A read model builder. `apply` must be idempotent: applying an event twice leaves the same
 * read model (the read store's writer guards writes by event position to help).
 */
export interface Projection {
  name: string;
  /** Bump when `apply` changes meaning: the runner rebuilds the read model from the log. */
  version: number;
  handles: readonly string[];
  /** Every collection the projection writes, with its indexes (rebuilds swap all of them). */
  collections: Record<string, IndexSpec[]>;
  /** `event.data` has already been upcast and validated against the catalogue. */
  apply(event: RecordedEvent, writer: ReadModelWriter): Promise<void>;
}
