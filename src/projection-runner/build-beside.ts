/**
 * A new version of a read model, built beside the live one (a projection's version bump): the
 * previous version keeps answering queries, as it stood, while the new one is built from the log
 * into shadow collections; when the build reaches the head it is switched in under the runner's
 * lock (no live batch interleaves), the previous collections are dropped, and from the next batch
 * on the projection follows the log like the others. A build that fails is retried after a delay
 * that doubles up to 30 s (health names it failing meanwhile; the previous version still answers).
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import type { ReadStore } from '../readstore/port.js';
import type { ProjectionState } from './projection-state.js';
import { rebuildProjection, RebuildStoppedError } from './rebuild.js';

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;

export interface BuildBesideDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  logger: Logger;
  /** The runner's lock: one batch or one switch at a time. */
  lock: <T>(work: () => Promise<T>) => Promise<T>;
  isRunning: () => boolean;
  /** Resolves when the runner stops (ends a wait before a retry). */
  stopped: Promise<void>;
  /** Told once the new version is live (read-your-writes waiters may move). */
  onSwitched: () => void;
  openEvent?: ((event: RecordedEvent) => RecordedEvent) | undefined;
}

/** Builds the state's new version until it is switched in, or until the runner stops. */
export async function buildBeside(deps: BuildBesideDeps, state: ProjectionState): Promise<void> {
  const { projection } = state;
  let retryDelay = FIRST_RETRY_MS;
  while (deps.isRunning() && state.building) {
    const started = performance.now();
    try {
      const position = await rebuildProjection(deps, projection, {
        shouldStop: () => !deps.isRunning(),
        onProgress: (progress) => {
          state.building = { position: progress.position, head: progress.head };
        },
        exclusively: (swap) =>
          deps.lock(async () => {
            const reached = await swap();
            state.position = reached;
            state.stored = reached;
            state.building = undefined;
            state.failing = undefined;
          }),
      });
      deps.logger.info(
        {
          projection: projection.name,
          version: projection.version,
          position: String(position),
          ms: Math.round(performance.now() - started),
        },
        'the new version of the read model reached the head and was switched in',
      );
      deps.onSwitched();
    } catch (error) {
      if (error instanceof RebuildStoppedError || !deps.isRunning()) return;
      state.failing = `building version ${projection.version}: ${(error as Error).message}`;
      deps.logger.error(
        { err: error, projection: projection.name, retryInMs: retryDelay },
        'building the new version of a read model failed; the previous version keeps answering; retrying',
      );
      await Promise.race([deps.stopped, new Promise((resolve) => setTimeout(resolve, retryDelay).unref())]);
      retryDelay = Math.min(retryDelay * 2, LONGEST_RETRY_MS);
    }
  }
}
