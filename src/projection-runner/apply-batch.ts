/**
 * One batch of events applied to every projection: each applies the events it handles (one
 * read-store transaction with its checkpoint) and moves past the rest. A projection that cannot
 * apply an event stalls (its position stays) and is retried with the next batch; the others go on.
 */
import type { Logger } from 'pino';
import type { RecordedEvent } from '../eventstore/port.js';
import { readEventData } from '../events/catalogue.js';
import type { ReadStore } from '../readstore/port.js';
import { storeCheckpointWhenFarBehind } from './checkpoints.js';
import type { ProjectionState } from './projection-state.js';

/** Applies the batch to every projection (the caller holds the runner's lock); health reads `failing`. */
export async function applyToEveryProjection(
  deps: { readStore: ReadStore; logger: Logger; openEvent?: ((event: RecordedEvent) => RecordedEvent) | undefined },
  states: Iterable<ProjectionState>,
  batch: RecordedEvent[],
): Promise<void> {
  // Secrets are opened only for the events some projection handles, once each (the log hands them sealed).
  const opened = new Map<RecordedEvent, RecordedEvent>();
  const open = deps.openEvent
    ? (event: RecordedEvent) => {
        let plain = opened.get(event);
        if (!plain) opened.set(event, (plain = deps.openEvent!(event)));
        return plain;
      }
    : (event: RecordedEvent) => event;
  for (const state of states) {
    // Its new version is being built beside the live one, which stays as it is until the switch.
    if (state.building) continue;
    try {
      await applyTo(deps.readStore, state, batch, open);
      state.failing = undefined;
    } catch (error) {
      // A projection that cannot apply an event stalls (its position stays) and is retried;
      // the others go on. Health reports it.
      state.failing = (error as Error).message;
      deps.logger.error({ err: error, projection: state.projection.name }, 'projection failed to apply events');
    }
  }
}

async function applyTo(
  readStore: ReadStore,
  state: ProjectionState,
  batch: RecordedEvent[],
  open: (event: RecordedEvent) => RecordedEvent,
) {
  const handled = batch.filter((e) => e.position > state.position && state.handles.has(e.type));
  if (handled.length > 0) {
    await readStore.applyBatch(
      { projection: state.projection.name, version: state.projection.version },
      handled.map((sealed) => {
        const e = open(sealed);
        return { ...e, data: readEventData(e.type, e.data) };
      }),
      (event, writer) => state.projection.apply(event, writer),
    );
    state.stored = handled.at(-1)!.position;
  }
  const last = batch.at(-1)!.position;
  if (last > state.position) state.position = last;
  await storeCheckpointWhenFarBehind(readStore, state);
}
