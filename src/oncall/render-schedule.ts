/**
 * The final schedule over a range: who is on call when, and which layer or override put them there.
 *
 * Only handoffs and override edges can change the answer, so the range is cut at those instants and
 * each elementary interval is decided once, at its start. The zone is consulted once per handoff
 * (to place it) and never inside the sweep; a 90-day range of five daily layers is a few hundred
 * intervals.
 */
import {
  compileSchedule,
  type CompiledLayer,
  type CompiledOverride,
  type CompiledSchedule,
} from './compiled-schedule.js';
import { turnsBetween, type Handoff } from './layer-rotation.js';
import type { IsActiveUser, OnCallSource, ScheduleDefinition, ScheduleSegment } from './schedule-definition.js';

/** The longest range callers should render in one go (the math itself has no limit). */
export const MAX_RENDER_DAYS = 90;

/** A segment in milliseconds; `overrideId` null means a layer put the user there. */
export interface RenderedSpan {
  userId: string;
  start: number;
  end: number;
  layerIndex: number;
  overrideId: string | null;
}

interface LayerTimeline {
  layer: CompiledLayer;
  turn: number;
  handoffs: Handoff[];
  nextHandoff: number;
}

function timelineOf(schedule: CompiledSchedule, layer: CompiledLayer, from: number, to: number): LayerTimeline {
  if (!layer.hasAnyone) return { layer, turn: -1, handoffs: [], nextHandoff: 0 };
  const { turnAtFrom, handoffs } = turnsBetween(schedule.timeZone, layer, from, to);
  return { layer, turn: turnAtFrom, handoffs, nextHandoff: 0 };
}

function boundariesOf(from: number, to: number, timelines: LayerTimeline[], overrides: CompiledOverride[]): number[] {
  const cuts = [from];
  for (const timeline of timelines) for (const handoff of timeline.handoffs) cuts.push(handoff.instant);
  for (const override of overrides) {
    if (override.start > from) cuts.push(override.start);
    if (override.end < to) cuts.push(override.end);
  }
  cuts.sort((a, b) => a - b);
  return cuts.filter((cut, index) => index === 0 || cut !== cuts[index - 1]);
}

/** Who is on call at `at`, given each layer's current turn; null when nobody is. */
function decide(
  at: number,
  timelines: LayerTimeline[],
  overrides: CompiledOverride[],
): Omit<RenderedSpan, 'start' | 'end'> | null {
  for (let index = overrides.length - 1; index >= 0; index--) {
    const override = overrides[index]!;
    if (override.start <= at && at < override.end) {
      return { userId: override.userId, layerIndex: -1, overrideId: override.id };
    }
  }
  for (let layerIndex = timelines.length - 1; layerIndex >= 0; layerIndex--) {
    const { layer, turn } = timelines[layerIndex]!;
    if (turn < 0) continue;
    const userId = layer.assignees[turn % layer.assignees.length];
    if (userId) return { userId, layerIndex, overrideId: null };
  }
  return null;
}

/** The final schedule on [from, to) in milliseconds: sorted, disjoint, same attribution merged. */
export function renderSpans(schedule: CompiledSchedule, from: number, to: number): RenderedSpan[] {
  if (!(from < to)) return [];
  const timelines = schedule.layers.map((layer) => timelineOf(schedule, layer, from, to));
  const overrides = schedule.overrides.filter((override) => override.start < to && override.end > from);
  const cuts = boundariesOf(from, to, timelines, overrides);
  const spans: RenderedSpan[] = [];
  for (let index = 0; index < cuts.length; index++) {
    const start = cuts[index]!;
    const end = cuts[index + 1] ?? to;
    for (const timeline of timelines) {
      while (
        timeline.nextHandoff < timeline.handoffs.length &&
        timeline.handoffs[timeline.nextHandoff]!.instant <= start
      ) {
        timeline.turn = timeline.handoffs[timeline.nextHandoff++]!.turn;
      }
    }
    const onCall = decide(start, timelines, overrides);
    if (onCall === null) continue;
    const previous = spans[spans.length - 1];
    const continues =
      previous !== undefined &&
      previous.end === start &&
      previous.userId === onCall.userId &&
      previous.layerIndex === onCall.layerIndex &&
      previous.overrideId === onCall.overrideId;
    if (continues) previous.end = end;
    else spans.push({ ...onCall, start, end });
  }
  return spans;
}

export function attributionOf(span: RenderedSpan): OnCallSource {
  return span.overrideId === null
    ? { source: 'layer', layerIndex: span.layerIndex }
    : { source: 'override', overrideId: span.overrideId };
}

/**
 * Who is on call on [since, until): sorted, non-overlapping segments; neighbours with the same user
 * and the same layer or override are merged; stretches with nobody on call are absent.
 * Throws RangeError for an unreadable definition or an invalid date.
 */
export function renderSchedule(
  definition: ScheduleDefinition,
  since: Date,
  until: Date,
  isActiveUser: IsActiveUser,
): ScheduleSegment[] {
  if (Number.isNaN(since.getTime()) || Number.isNaN(until.getTime()))
    throw new RangeError('since and until must be valid dates');
  return renderSpans(compileSchedule(definition, isActiveUser), since.getTime(), until.getTime()).map((span) => ({
    userId: span.userId,
    start: new Date(span.start),
    end: new Date(span.end),
    ...attributionOf(span),
  }));
}
