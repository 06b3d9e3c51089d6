/**
 * Follows the global log and keeps every projection's read model current. One subscription feeds
 * all projections; events that arrive together are applied as one batch per projection (one
 * read-store transaction with its checkpoint). `waitFor` gives commands read-your-writes.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/port.js';
import { readEventData } from '../events/catalogue.js';
import type { ReadStore } from '../readstore/port.js';
import { serialLock } from '../readstore/serial-lock.js';
import { positionWaiters } from './position-waiters.js';
import type { Projection } from './projection.js';
import { rebuildProjection, type RebuildProgress } from './rebuild.js';
import { rebuildAheadOfTheLog } from './ahead-of-the-log.js';

interface ProjectionState {
  projection: Projection;
  position: bigint;
  /** The position its stored checkpoint holds (behind `position` while it skips events). */
  stored: bigint;
  handles: Set<string>;
  failing?: string;
}

export interface ProjectionRunnerDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  logger: Logger;
  /** Told each time read-your-writes waiters are released up to a position (the projections on the writer thread report it to the main thread). */
  onAdvance?: (position: bigint) => void;
}

/** Events held in memory at most; beyond it the subscription is not read further. */
const MAX_BUFFERED_EVENTS = 10_000;
/**
 * A projection that handles none of the events it passes stores its checkpoint at most this far
 * behind (and on stop), so a restart re-reads a bounded stretch of the log, not all of it, without
 * a checkpoint write per batch for every projection.
 */
export const SKIPPED_CHECKPOINT_EVERY = 1_000n;

export interface ProjectionStatus {
  name: string;
  version: number;
  /** Position of the last event this projection has applied (or skipped). */
  position: bigint;
  /** Events buffered beyond its position. */
  lag: number;
  failing?: string | undefined;
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
  const states = new Map<string, ProjectionState>(
    deps.projections.map((p) => [p.name, { projection: p, position: -1n, stored: -1n, handles: new Set(p.handles) }]),
  );
  const waiters = positionWaiters();
  const lock = serialLock();
  let buffer: RecordedEvent[] = [];
  let wake: (() => void) | undefined;
  let drained: (() => void) | undefined;
  let subscription: Subscription | undefined;
  let running = false;
  let subscriptionEnded: string | undefined;
  let resubscribe: NodeJS.Timeout | undefined;
  let resubscribeDelay = 100;
  let loop: Promise<void> | undefined;

  const lowestPosition = () =>
    [...states.values()].reduce((min, s) => (s.position < min ? s.position : min), BigInt(Number.MAX_SAFE_INTEGER));

  async function applyTo(state: ProjectionState, batch: RecordedEvent[]) {
    const handled = batch.filter((e) => e.position > state.position && state.handles.has(e.type));
    if (handled.length > 0) {
      await deps.readStore.applyBatch(
        { projection: state.projection.name, version: state.projection.version },
        handled.map((e) => ({ ...e, data: readEventData(e.type, e.data) })),
        (event, writer) => state.projection.apply(event, writer),
      );
      state.stored = handled.at(-1)!.position;
    }
    const last = batch.at(-1)!.position;
    if (last > state.position) state.position = last;
    if (state.position - state.stored >= SKIPPED_CHECKPOINT_EVERY) await storeCheckpoint(state);
  }

  async function storeCheckpoint(state: ProjectionState) {
    if (state.position <= state.stored) return;
    await deps.readStore.setCheckpoint(state.projection.name, {
      position: state.position,
      version: state.projection.version,
    });
    state.stored = state.position;
  }

  async function processBatch(batch: RecordedEvent[]) {
    await lock(async () => {
      for (const state of states.values()) {
        try {
          await applyTo(state, batch);
          state.failing = undefined;
        } catch (error) {
          // A projection that cannot apply an event stalls (its position stays) and is retried;
          // the others go on. Health reports it.
          state.failing = (error as Error).message;
          deps.logger.error({ err: error, projection: state.projection.name }, 'projection failed to apply events');
        }
      }
    });
    const lowest = lowestPosition();
    waiters.advance(lowest);
    deps.onAdvance?.(lowest);
    return [...states.values()].every((s) => !s.failing);
  }

  async function processLoop() {
    let retryDelay = 100;
    while (running) {
      if (buffer.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        // The subscription hands events over one microtask at a time; let it hand over everything
        // it already has before taking a batch, so one read-store transaction covers them all.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const batch = buffer;
      buffer = [];
      const healthy = await processBatch(batch);
      if (!healthy && running) {
        // Put the batch back for a later retry (events the healthy projections have applied are skipped by position).
        buffer = [...batch, ...buffer];
        await new Promise((resolve) => setTimeout(resolve, retryDelay).unref());
        retryDelay = Math.min(retryDelay * 2, 5000);
      } else {
        retryDelay = 100;
        drained?.();
        drained = undefined;
      }
    }
  }

  /** Subscribes to the log; an ended subscription is reported and retried with backoff. */
  function follow() {
    // After what is already buffered (the ended subscription handed it over), else the lowest checkpoint.
    const after = buffer.at(-1)?.position ?? lowestPosition();
    const current = deps.eventStore.subscribeToAll({ after: after < 0n ? undefined : after });
    subscription = current;
    void pump(current).catch((error) => {
      if (!running) return;
      // Every projection stops here: health must say so (not only this one log line) until events flow again.
      subscriptionEnded = `the log subscription ended: ${(error as Error).message}`;
      deps.logger.error(
        { err: error, retryInMs: resubscribeDelay },
        'projection subscription ended: every projection has stopped; resubscribing',
      );
      deps.onAdvance?.(lowestPosition());
      resubscribe = setTimeout(() => running && follow(), resubscribeDelay);
      resubscribe.unref();
      resubscribeDelay = Math.min(resubscribeDelay * 2, 30_000);
    });
  }

  async function pump(sub: Subscription) {
    for await (const event of sub) {
      if (subscriptionEnded) {
        subscriptionEnded = undefined;
        resubscribeDelay = 100;
      }
      buffer.push(event);
      wake?.();
      // Backpressure: while a projection is stuck, stop pulling rather than hold the log in memory.
      while (buffer.length >= MAX_BUFFERED_EVENTS && running) {
        await new Promise<void>((resolve) => (drained = resolve));
      }
    }
  }

  return {
    /** Loads checkpoints (rebuilding projections whose version changed), then follows the log. */
    async start() {
      for (const state of states.values()) {
        for (const [collection, indexes] of Object.entries(state.projection.collections)) {
          await deps.readStore.ensureIndexes(collection, indexes);
        }
        const checkpoint = await deps.readStore.getCheckpoint(state.projection.name);
        if (checkpoint && checkpoint.version === state.projection.version) {
          state.position = checkpoint.position;
        } else if (checkpoint) {
          deps.logger.info({ projection: state.projection.name }, 'projection version changed: rebuilding');
          state.position = await rebuildProjection(deps, state.projection);
        }
        state.stored = state.position;
      }
      const head = await deps.eventStore.headPosition();
      for (const state of states.values()) {
        if (state.position <= head) continue;
        state.position = await rebuildAheadOfTheLog(deps, state.projection, state.position, head);
        state.stored = state.position;
      }
      running = true;
      follow();
      loop = processLoop();
      if (lowestPosition() >= head) {
        waiters.advance(lowestPosition());
        deps.onAdvance?.(lowestPosition());
      }
    },

    async stop() {
      running = false;
      clearTimeout(resubscribe);
      await subscription?.close();
      wake?.();
      drained?.();
      await loop;
      // Where it got to, for the projections that skipped the last events (a bounded re-read otherwise).
      await lock(async () => {
        for (const state of states.values()) if (!state.failing) await storeCheckpoint(state).catch(() => undefined);
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
      const position = await rebuildProjection(deps, state.projection, onProgress, (swap) =>
        lock(async () => {
          const reached = await swap();
          if (reached > state.position) state.position = reached;
        }),
      );
      return position;
    },

    status(): ProjectionStatus[] {
      return [...states.values()].map((s) => ({
        name: s.projection.name,
        version: s.projection.version,
        position: s.position,
        lag: buffer.filter((e) => e.position > s.position).length,
        failing: s.failing ?? subscriptionEnded,
      }));
    },
  };
}
