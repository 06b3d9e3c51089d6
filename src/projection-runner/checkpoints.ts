/**
 * The checkpoints: read at start (a projection whose version changed is rebuilt, one ahead of the
 * log's head is rebuilt from the log as it is), and stored with each batch a projection applies.
 * A projection that handles none of the events it passes stores its checkpoint only now and then
 * (and on stop), so a restart re-reads a bounded stretch of the log without a checkpoint write per
 * batch for every projection.
 */
import type { Logger } from 'pino';
import type { EventStore } from '../eventstore/port.js';
import type { ReadStore } from '../readstore/port.js';
import { rebuildAheadOfTheLog } from './ahead-of-the-log.js';
import type { ProjectionState } from './projection-state.js';
import { rebuildProjection } from './rebuild.js';

/** How far behind its position a projection that skips events lets its stored checkpoint fall. */
export const SKIPPED_CHECKPOINT_EVERY = 1_000n;

/**
 * Ensures every projection's indexes and sets its position from its checkpoint, rebuilding the
 * projections whose version changed or whose checkpoint is beyond the log; resolves with the log's head.
 */
export async function restoreCheckpoints(
  deps: { eventStore: EventStore; readStore: ReadStore; logger: Logger },
  states: ProjectionState[],
): Promise<bigint> {
  for (const state of states) {
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
  for (const state of states) {
    if (state.position <= head) continue;
    state.position = await rebuildAheadOfTheLog(deps, state.projection, state.position, head);
    state.stored = state.position;
  }
  return head;
}

/** Stores the projection's position as its checkpoint, unless the stored one is already there. */
export async function storeCheckpoint(readStore: ReadStore, state: ProjectionState): Promise<void> {
  if (state.position <= state.stored) return;
  await readStore.setCheckpoint(state.projection.name, {
    position: state.position,
    version: state.projection.version,
  });
  state.stored = state.position;
}

/** Stores the checkpoint of a projection that has skipped SKIPPED_CHECKPOINT_EVERY positions since it last stored one. */
export async function storeCheckpointWhenFarBehind(readStore: ReadStore, state: ProjectionState): Promise<void> {
  if (state.position - state.stored >= SKIPPED_CHECKPOINT_EVERY) await storeCheckpoint(readStore, state);
}
