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
}

/** Every projection before its checkpoint is read: nothing applied, nothing stored. */
export function initialStates(projections: Projection[]): Map<string, ProjectionState> {
  return new Map(
    projections.map((p) => [p.name, { projection: p, position: -1n, stored: -1n, handles: new Set(p.handles) }]),
  );
}

/** The position every projection has reached: what read-your-writes waits for, and where the log is followed from. */
export function lowestPosition(states: Map<string, ProjectionState>): bigint {
  return [...states.values()].reduce(
    (min, s) => (s.position < min ? s.position : min),
    BigInt(Number.MAX_SAFE_INTEGER),
  );
}
