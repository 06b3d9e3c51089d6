/**
 * Follows the global log and keeps every projection's read model current. One subscription feeds
 * all projections; events that arrive together are applied as one batch per projection (one
 * read-store transaction with its checkpoint). `waitFor` gives commands read-your-writes.
 *
 * The pieces, in the order they run: the checkpoints (checkpoints.ts) say where each projection
 * starts; the live subscription (log-subscription.ts) fills the buffer (event-buffer.ts); the batch
 * loop (batch-loop.ts) applies what it holds to every projection (apply-batch.ts); read-your-writes
 * waiters (position-waiters.ts) are released as the lowest position moves.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import type { ReadStore } from '../readstore/port.js';
import { serialLock } from '../readstore/serial-lock.js';
import { applyToEveryProjection } from './apply-batch.js';
import { buildBeside } from './build-beside.js';
import { catchUpInPages } from './catch-up.js';
import { runBatchLoop } from './batch-loop.js';
import { restoreCheckpoints, storeCheckpoint } from './checkpoints.js';
import { eventBuffer } from './event-buffer.js';
import { followLog, type LogSubscription } from './log-subscription.js';
import { positionWaiters } from './position-waiters.js';
import type { Projection } from './projection.js';
import { initialStates, lowestPosition } from './projection-state.js';
import { rebuildProjection, type RebuildProgress } from './rebuild.js';

export interface ProjectionRunnerDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  logger: Logger;
  /**
   * When the log hands events with their secrets sealed: opens one (only the events some projection
   * handles are opened). Unset: the log opens them itself (encryptingEventStore).
   */
  openEvent?: (event: RecordedEvent) => RecordedEvent;
  /** Told each time read-your-writes waiters are released up to a position (the projections on the writer thread report it to the main thread). */
  onAdvance?: (position: bigint) => void;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  /** Position of the last event this projection has applied (or skipped). */
  position: bigint;
  /** Events buffered beyond its position. */
  lag: number;
  failing?: string | undefined;
  /**
   * Its new version is being built beside the live one (a version bump), this far into the log;
   * until the switch, queries read the previous version as it stood and `position` stays there.
   */
  building?: { position: bigint; head: bigint } | undefined;
}

/** The in-process runner below, or the embedded stores' projections on the log's writer thread (src/composition/projection-thread.ts). */
export interface ProjectionRunner {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves true when every projection has applied `position` (false after the timeout). */
  waitFor(position: bigint, timeoutMs?: number): Promise<boolean>;
  rebuild(name: string, onProgress?: (progress: RebuildProgress) => void): Promise<bigint>;
  status(): ProjectionStatus[];
}

export function createProjectionRunner(deps: ProjectionRunnerDeps): ProjectionRunner {
  const states = initialStates(deps.projections);
  const waiters = positionWaiters();
  /** One batch, one rebuild's swap, or the final checkpoints at a time. */
  const lock = serialLock();
  const buffer = eventBuffer();
  let running = false;
  let live: LogSubscription | undefined;
  let loop: Promise<void> | undefined;
  let builds: Promise<void>[] = [];
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));

  /** Releases the read-your-writes waiters up to the position every projection has reached. */
  function reportReached() {
    const lowest = lowestPosition(states);
    waiters.advance(lowest);
    deps.onAdvance?.(lowest);
  }

  async function applyBatch(batch: RecordedEvent[]): Promise<boolean> {
    await lock(() => applyToEveryProjection(deps, states.values(), batch));
    reportReached();
    return [...states.values()].every((s) => !s.failing);
  }

  return {
    /** Loads checkpoints (rebuilding projections whose version changed), then follows the log. */
    async start() {
      const head = await restoreCheckpoints(deps, [...states.values()]);
      running = true;
      const follow = () => {
        live = followLog({
          eventStore: deps.eventStore,
          logger: deps.logger,
          buffer,
          lowestPosition: () => lowestPosition(states),
          isRunning: () => running,
          // The status (every projection failing) goes to whoever reports it, as with an advance.
          onEnded: () => deps.onAdvance?.(lowestPosition(states)),
        });
        return runBatchLoop(buffer, applyBatch, () => running);
      };
      // Far behind (a cold start): large pages first, then the live subscription from where they got.
      loop = catchUpInPages({
        eventStore: deps.eventStore,
        from: () => lowestPosition(states),
        apply: applyBatch,
        isRunning: () => running,
      })
        // The live subscription retries what the pages could not read.
        .catch((error) => deps.logger.warn({ err: error }, 'catching up in pages failed; following the log'))
        .then(() => (running ? follow() : undefined));
      // Version bumps: the previous versions answer queries until the new ones reach the head.
      builds = [...states.values()]
        .filter((state) => state.building)
        .map((state) =>
          buildBeside({ ...deps, lock, isRunning: () => running, stopped, onSwitched: reportReached }, state),
        );
      if (lowestPosition(states) >= head) reportReached();
    },

    async stop() {
      running = false;
      markStopped();
      await live?.close();
      buffer.releaseWaiters();
      await loop;
      await Promise.all(builds);
      // Where it got to, for the projections that skipped the last events (a bounded re-read otherwise).
      await lock(async () => {
        for (const state of states.values()) {
          if (!state.failing) await storeCheckpoint(deps.readStore, state).catch(() => undefined);
        }
      });
      waiters.cancelAll();
    },

    /** Resolves true when every projection has applied `position` (false after the timeout). */
    waitFor(position: bigint, timeoutMs = 2000): Promise<boolean> {
      return waiters.waitFor(position, timeoutMs);
    },

    /** Rebuilds one projection into fresh collections from position 0, then swaps them in. */
    async rebuild(name: string, onProgress?: (progress: RebuildProgress) => void) {
      const state = states.get(name);
      if (!state) throw new Error(`unknown projection ${name}`);
      if (state.building) throw new Error(`the new version of ${name} is being built already`);
      return rebuildProjection(deps, state.projection, {
        onProgress,
        exclusively: (swap) =>
          lock(async () => {
            const reached = await swap();
            if (reached > state.position) state.position = reached;
          }),
      });
    },

    status(): ProjectionStatus[] {
      return [...states.values()].map((s) => ({
        name: s.projection.name,
        version: s.projection.version,
        position: s.position,
        lag: buffer.countAfter(s.position),
        failing: s.failing ?? live?.endedReason,
        ...(s.building ? { building: { ...s.building } } : {}),
      }));
    },
  };
}
