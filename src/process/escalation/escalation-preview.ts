/**
 * The escalation preview: what an escalation would do for an incident triggered at `at`, worked
 * out with the escalation manager's own pieces rather than a copy of them. Due times come from
 * nextDueStage (src/events/escalation.ts), each stage assumed to fire on time, so stage n fires at
 * the sum of the delays before it and a repeat cycle starts `repeat_interval_minutes` after the
 * last stage. Recipients come from resolveStageTargets at the moment each stage would fire, as the
 * reconciler calls it when the stage comes due: a schedule answers with whoever is on call then,
 * which may be someone else than at `at`.
 *
 * It only reads the directory: nothing is appended and nothing is sent. Users, groups and channels
 * are read as they are now (a membership change between now and a stage is not foreseen); only the
 * schedule math looks ahead.
 *
 * The work is bounded before it starts. A preview costs, in work units, the sum over the distinct
 * (schedule target, firing instant) pairs of the schedule's size: 1 + the people across its layers
 * + its overrides (what compiling and rendering it walks; a person, group or channel target costs
 * nothing here: it is one read per request). At the allowed maxima (20 stages × 50 schedules of 10
 * layers × 100 people and 500 overrides, 5 cycles: 100 firings) that is 5,000 pairs of 1,501 units,
 * 7,505,000; the route refuses a preview above its budget (ESCALATION_PREVIEW_WORK_UNITS, default
 * 5,000,000) with a 422 before resolving anything.
 */
import { nextDueStage, type EscalationPlan, type FiredStage } from '../../events/escalation.js';
import type { ScheduleDefinition } from '../../oncall/schedule-definition.js';
import { resolveStageTargets, type ResolvedRecipient, type TargetDirectory } from './target-resolution.js';

/** A preview lists at most this many cycles of a repeating policy. */
export const MAX_PREVIEW_CYCLES = 5;

export interface PreviewedStage {
  stageOrder: number;
  /** 0 for the first pass; 1, 2 … for the repeats. */
  cycle: number;
  firesAt: Date;
  /** Whole minutes after the trigger. */
  offsetMinutes: number;
  recipients: ResolvedRecipient[];
}

export type PreviewPlan = Pick<EscalationPlan, 'stages' | 'repeatIntervalMinutes'>;

/** A schedule's work units (its size): 1 + the people across its layers + its overrides. */
export const scheduleWorkUnits = (definition: Pick<ScheduleDefinition, 'layers' | 'overrides'>) =>
  1 + definition.layers.reduce((sum, layer) => sum + layer.userIds.length, 0) + definition.overrides.length;

export interface PreviewFiring {
  stageOrder: number;
  cycle: number;
  firesAt: Date;
}

/** When each stage fires for a trigger at `at`, over the first `cycles` cycles, in firing order (no lookups). */
export function previewFirings(plan: PreviewPlan, at: Date, cycles = 1): PreviewFiring[] {
  const timing = { ...plan, startedAt: at.toISOString() };
  const firings: PreviewFiring[] = [];
  let lastFired: Pick<FiredStage, 'stageOrder' | 'cycle' | 'firedAt'> | null = null;
  for (let due = nextDueStage(timing, lastFired); due && due.cycle < cycles; due = nextDueStage(timing, lastFired)) {
    const firesAt = new Date(due.dueAt);
    firings.push({ stageOrder: due.stageOrder, cycle: due.cycle, firesAt });
    lastFired = { stageOrder: due.stageOrder, cycle: due.cycle, firedAt: firesAt.toISOString() };
  }
  return firings;
}

/**
 * The work units of a preview (see the file comment): each distinct (schedule, instant) once, at
 * the schedule's units; a schedule that no longer exists costs 1 (its answer is "no such schedule").
 */
export async function previewWorkUnits(
  plan: PreviewPlan,
  firings: PreviewFiring[],
  scheduleUnits: (scheduleId: string) => Promise<number | null>,
): Promise<number> {
  const pairs = new Map<string, string>();
  for (const firing of firings) {
    const stage = plan.stages.find((s) => s.stageOrder === firing.stageOrder)!;
    for (const target of stage.targets) {
      if (target.type === 'schedule') pairs.set(`${target.id}\u0000${firing.firesAt.getTime()}`, target.id);
    }
  }
  const unitsById = new Map<string, number>();
  for (const id of new Set(pairs.values())) unitsById.set(id, (await scheduleUnits(id)) ?? 1);
  let units = 0;
  for (const id of pairs.values()) units += unitsById.get(id)!;
  return units;
}

/** The stages the escalation would fire for a trigger at `at`, over the first `cycles` cycles, in firing order. */
export async function previewEscalation(
  directory: TargetDirectory,
  tenantId: string,
  plan: PreviewPlan,
  at: Date,
  cycles = 1,
): Promise<PreviewedStage[]> {
  const previewed: PreviewedStage[] = [];
  for (const firing of previewFirings(plan, at, cycles)) {
    const stage = plan.stages.find((s) => s.stageOrder === firing.stageOrder)!;
    previewed.push({
      ...firing,
      offsetMinutes: Math.round((firing.firesAt.getTime() - at.getTime()) / 60_000),
      recipients: await resolveStageTargets(directory, tenantId, stage.targets, firing.firesAt),
    });
  }
  return previewed;
}
