/**
 * Where each projection stands in the log: the position it has applied (or skipped) up to, the
 * position its stored checkpoint holds, and why it is failing, if it is. Every other piece of the
 * runner reads or moves these.
 */
import type { Projection } from './projection.js';

export interface ProjectionState {
  projection: Projection;
  position: bigint;
  /** The position its stored checkpoint holds (behind `position` while it skips events). */
  stored: bigint;
  handles: Set<string>;
  failing?: string;
  /**
   * Set while a new version of the read model is built beside the live one (a version bump): the
   * live collections are the previous version's, which no code applies any longer, so live batches
   * leave them (and this state's position) alone until the new version is switched in.
   */
  building?: { position: bigint; head: bigint };
}

/** Every projection before its checkpoint is read: nothing applied, nothing stored. */
export function initialStates(projections: Projection[]): Map<string, ProjectionState> {
  return new Map(
    projections.map((p) => [p.name, { projection: p, position: -1n, stored: -1n, handles: new Set(p.handles) }]),
  );
}

/**
 * The position every live projection has reached: what read-your-writes waits for, and where the
 * log is followed from. A projection whose new version is being built beside it does not hold the
 * others back (it reads the log itself and joins at its switch); when every one is, they all count.
 */
export function lowestPosition(states: Map<string, ProjectionState>): bigint {
  const all = [...states.values()];
  const live = all.filter((s) => !s.building);
  return (live.length > 0 ? live : all).reduce(
    (min, s) => (s.position < min ? s.position : min),
    BigInt(Number.MAX_SAFE_INTEGER),
  );
}
