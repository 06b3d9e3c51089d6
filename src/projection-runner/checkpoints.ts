/**
 * The checkpoints: read at start (a projection whose version changed is marked for a new version
 * built beside the live one, one ahead of the log's head is rebuilt from the log as it is), and stored with each batch a projection applies.
 * A projection that handles none of the events it passes stores its checkpoint only now and then
 * (and on stop), so a restart re-reads a bounded stretch of the log without a checkpoint write per
 * batch for every projection.
 */
import type { ReadStore } from '../readstore/port.js';
import { rebuildAheadOfTheLog } from './ahead-of-the-log.js';
import type { ProjectionState } from './projection-state.js';

/** How far behind its position a projection that skips events lets its stored checkpoint fall. */
export const SKIPPED_CHECKPOINT_EVERY = 1_000n;

/**
 * Ensures every projection's indexes and sets its position from its checkpoint, marking those whose
 * version changed (`building`) and rebuilding those whose checkpoint is beyond the log; resolves
 * with the log's head.
 */
export async function restoreCheckpoints(
  deps: Parameters<typeof rebuildAheadOfTheLog>[0],
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
      // The previous version keeps answering queries while the new one is built beside it
      // (build-beside.ts, started by the runner once it follows the log).
      deps.logger.info(
        { projection: state.projection.name, from: checkpoint.version, to: state.projection.version },
        'projection version changed: building the new version beside the live one',
      );
      state.position = checkpoint.position;
      state.building = { position: -1n, head: -1n };
    }
    state.stored = state.position;
  }
  const head = await deps.eventStore.headPosition();
  for (const state of states) {
    if (state.position <= head) continue;
    // Showing events the log no longer has is worse than not answering: rebuilt before serving.
    state.position = await rebuildAheadOfTheLog(deps, state.projection, state.position, head);
    state.stored = state.position;
    state.building = undefined;
  }
  return head;
}

/** Stores the projection's position as its checkpoint, unless the stored one is already there. */
export async function storeCheckpoint(readStore: ReadStore, state: ProjectionState): Promise<void> {
  // The live collections are still the previous version's: its checkpoint must keep saying so.
  if (state.building || state.position <= state.stored) return;
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
