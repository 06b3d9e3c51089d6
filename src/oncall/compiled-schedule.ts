/**
 * A schedule definition parsed once and resolved against who is active, so rendering works on
 * numbers and never asks `isActiveUser` or parses a date again.
 */
import { rotationAnchor, type RotationAnchor } from './layer-rotation.js';
import type { IsActiveUser, Layer, ScheduleDefinition } from './schedule-definition.js';
import { isValidTimeZone } from './zone-offsets.js';
import { parseScheduleTime } from './zoned-iso.js';

export interface CompiledLayer extends RotationAnchor {
  /** Who actually takes turn k: `assignees[k mod n]`, null when nobody in the layer is active. */
  assignees: (string | null)[];
  hasAnyone: boolean;
}

export interface CompiledOverride {
  id: string;
  userId: string;
  start: number;
  end: number;
}

export interface CompiledSchedule {
  timeZone: string;
  /** Same indexes as the definition's layers. */
  layers: CompiledLayer[];
  /** Only overrides that can apply (active user, start before end), in the definition's order. */
  overrides: CompiledOverride[];
}

/**
 * Slot i goes to the first active user at i, i+1, ... (wrapping): an inactive user's turn passes
 * to the next active one in the list, and the rest of the rotation does not shift.
 */
function activeAssignees(userIds: string[], isActiveUser: IsActiveUser): (string | null)[] {
  const active = userIds.map((userId) => isActiveUser(userId));
  const assignees: (string | null)[] = new Array(userIds.length).fill(null);
  if (!active.includes(true)) return assignees;
  // Walk backwards twice round the ring, carrying the nearest active user at or after each slot.
  let nearest: string | null = null;
  for (let step = 2 * userIds.length - 1; step >= 0; step--) {
    const slot = step % userIds.length;
    if (active[slot]) nearest = userIds[slot]!;
    assignees[slot] = nearest;
  }
  return assignees;
}

function compileLayer(layer: Layer, index: number, timeZone: string, isActiveUser: IsActiveUser): CompiledLayer {
  if (!Array.isArray(layer.userIds)) throw new RangeError(`layers[${index}].userIds must be an array`);
  try {
    const assignees = activeAssignees(layer.userIds, isActiveUser);
    return { ...rotationAnchor(layer, timeZone), assignees, hasAnyone: assignees.some((user) => user !== null) };
  } catch (error) {
    throw new RangeError(`layers[${index}]: ${(error as Error).message}`);
  }
}

/** Throws RangeError naming the field when the definition has an unknown zone or an unreadable time. */
export function compileSchedule(definition: ScheduleDefinition, isActiveUser: IsActiveUser): CompiledSchedule {
  const timeZone = definition.timezone;
  if (!isValidTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${String(timeZone)}`);
  const layers = definition.layers.map((layer, index) => compileLayer(layer, index, timeZone, isActiveUser));
  const overrides: CompiledOverride[] = [];
  definition.overrides.forEach((override, index) => {
    let start: number;
    let end: number;
    try {
      start = parseScheduleTime(override.start, timeZone);
      end = parseScheduleTime(override.end, timeZone);
    } catch (error) {
      throw new RangeError(`overrides[${index}]: ${(error as Error).message}`);
    }
    if (start < end && isActiveUser(override.userId))
      overrides.push({ id: override.id, userId: override.userId, start, end });
  });
  return { timeZone, layers, overrides };
}
