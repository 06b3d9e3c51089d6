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
 */
import { nextDueStage, type EscalationPlan, type FiredStage } from '../../events/escalation.js';
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

/** The stages the escalation would fire for a trigger at `at`, over the first `cycles` cycles, in firing order. */
export async function previewEscalation(directory: TargetDirectory, tenantId: string, plan: PreviewPlan, at: Date, cycles = 1): Promise<PreviewedStage[]> {
  const timing = { ...plan, startedAt: at.toISOString() };
  const previewed: PreviewedStage[] = [];
  let lastFired: Pick<FiredStage, 'stageOrder' | 'cycle' | 'firedAt'> | null = null;
  for (let due = nextDueStage(timing, lastFired); due && due.cycle < cycles; due = nextDueStage(timing, lastFired)) {
    const stage = plan.stages.find((s) => s.stageOrder === due!.stageOrder)!;
    const firesAt = new Date(due.dueAt);
    previewed.push({
      stageOrder: due.stageOrder, cycle: due.cycle, firesAt, offsetMinutes: Math.round((due.dueAt - at.getTime()) / 60_000),
      recipients: await resolveStageTargets(directory, tenantId, stage.targets, firesAt),
    });
    lastFired = { stageOrder: due.stageOrder, cycle: due.cycle, firedAt: firesAt.toISOString() };
  }
  return previewed;
}
