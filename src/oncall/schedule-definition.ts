/**
 * The on-call schedule as plain data: what the schedule math reads and what it answers.
 *
 * Semantics (the issue, as implemented by the files beside this one):
 * - A layer hands over every day (`daily`) or every 7 days (`weekly`) at the wall-clock time of day
 *   that `startTime` shows in the schedule's zone. Turn k (k = 0 starts exactly at `startTime`)
 *   belongs to `userIds[k mod n]`; before `startTime` the layer has nobody. Handoff wall clocks
 *   resolve like Temporal's `compatible`: skipped by a spring-forward → later by the gap's length;
 *   repeated by a fall-back → the earlier instant.
 * - Later layers cover earlier ones wherever they have somebody; a layer with nobody lets the layers
 *   below show through.
 * - An override applies on [start, end) and beats every layer; among overlapping overrides the one
 *   later in the array (added later) wins. Overrides of inactive users, and empty or reversed ones,
 *   never apply.
 * - An inactive user's turns go to the next active user in the layer's list; a layer with no active
 *   user has nobody.
 *
 * Decisions where the issue was silent:
 * - Precedence among overrides is array order alone; the spec has no "added at" field, and the whole
 *   array is replaced on update, so its order is what the author saw.
 * - Times without an offset are wall clocks in the schedule's zone (see zoned-iso.ts).
 * - A `startTime` inside a repeated hour starts turn 0 at the instant it names, while later handoffs
 *   use the earlier of the repeated instants, like every other handoff.
 */

export type RotationType = 'daily' | 'weekly';

export interface Layer {
  userIds: string[];
  rotationType: RotationType;
  /** ISO 8601; with an offset or `Z` it is that instant, without one a wall clock in the schedule zone. */
  startTime: string;
}

export interface Override {
  id: string;
  userId: string;
  start: string;
  end: string;
  reason?: string;
}

export interface ScheduleDefinition {
  /** IANA zone name; see isValidTimeZone. */
  timezone: string;
  /** Ordered bottom to top: a later layer covers an earlier one. */
  layers: Layer[];
  /** Later in the array means added later, and wins over earlier overlapping overrides. */
  overrides: Override[];
}

/** Deactivated or deleted users answer false and drop out of rotations and overrides at once. */
export type IsActiveUser = (userId: string) => boolean;

/** Who a stretch of the final schedule belongs to, and which part of the schedule put them there. */
export type OnCallSource = { source: 'layer'; layerIndex: number } | { source: 'override'; overrideId: string };

export type ScheduleSegment = OnCallSource & {
  userId: string;
  start: Date;
  /** Exclusive. */
  end: Date;
};

export type CurrentOnCall = OnCallSource & {
  userId: string;
  /** Start of this person's continuous stretch, whatever layers or overrides make it up. */
  since: Date;
  /** End of that stretch (exclusive); null when it runs past the look-ahead horizon. */
  until: Date | null;
};
