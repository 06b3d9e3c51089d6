/**
 * How many pages a would-be incident's escalation would have sent, by the escalation manager's own
 * timing (nextDueStage, src/events/escalation.ts): stage 1 at the trigger, each later stage its
 * delay after the previous one, the cycle again after repeat_interval_minutes, until the incident
 * resolves. A backtest has nobody to acknowledge, so no escalation is ever cut short by one: the
 * count is what an unanswered page would have cost. A page is one target notified by one stage
 * (a group or a schedule counts once here; who it reaches at that moment is the escalation
 * preview's question).
 */
import { nextDueStage, type FiredStage } from '../events/escalation.js';
import type { EscalationStage } from '../events/escalation-policy.js';

export interface PagedPolicy {
  stages: EscalationStage[];
  repeatIntervalMinutes: number;
}

export interface PageCount {
  stagesFired: number;
  pages: number;
}

/**
 * Stages due before `endedAt` (the resolution: a stage due at that very instant is cancelled),
 * or, for an incident still open, due up to and including `rangeEnd`.
 */
export function pagesFor(policy: PagedPolicy, startedAt: number, endedAt: number | null, rangeEnd: number): PageCount {
  const plan = {
    stages: policy.stages,
    repeatIntervalMinutes: policy.repeatIntervalMinutes,
    startedAt: new Date(startedAt).toISOString(),
  };
  const fires = (dueAt: number) => (endedAt === null ? dueAt <= rangeEnd : dueAt < endedAt || dueAt === startedAt);
  const targets = new Map(policy.stages.map((stage) => [stage.stageOrder, stage.targets.length]));
  const count: PageCount = { stagesFired: 0, pages: 0 };
  let last: Pick<FiredStage, 'stageOrder' | 'cycle' | 'firedAt'> | null = null;
  for (let due = nextDueStage(plan, last); due !== null && fires(due.dueAt); due = nextDueStage(plan, last)) {
    count.stagesFired++;
    count.pages += targets.get(due.stageOrder) ?? 0;
    last = { stageOrder: due.stageOrder, cycle: due.cycle, firedAt: new Date(due.dueAt).toISOString() };
    // A policy whose stages and repeat are all 0 minutes would fire forever at one instant.
    if (count.stagesFired > 1_000_000) break;
  }
  return count;
}
