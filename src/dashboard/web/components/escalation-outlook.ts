/**
 * What an incident's escalation does next, for people: the next stage, when it fires and whom it
 * pages; or that there is no further stage, or that it stopped. Pure: the page feeds it the
 * incident (GET /incidents/{id}: the current stage and `next_escalation_at`, the server's own due
 * time) and the escalation's plan.
 *
 * The plan is the policy as the escalation took it when the incident triggered (the
 * EscalationStarted event, for readers of the history); without the history, the policy as it is
 * now (escalation:read), which says so, since an edit since the trigger does not change an
 * escalation in flight. The stage order follows src/events/escalation.ts (nextDueStage): each
 * stage its delay after the one before fired; after the last, stage 1 again every
 * `repeatIntervalMinutes` when that is above 0.
 */
import type { EscalationPolicy, Incident, IncidentEvent, TargetType } from '../api/types.js'; // .js: the node tests import this file too

export interface PlanTarget {
  type: TargetType;
  id: string;
  channels: string[];
}

export interface PlanStage {
  stageOrder: number;
  delayMinutes: number;
  targets: PlanTarget[];
}

export interface EscalationPlan {
  policyName: string;
  stages: PlanStage[];
  repeatIntervalMinutes: number;
  /** `started`: as the escalation took it; `policy`: the policy now (it may have been edited since). */
  source: 'started' | 'policy';
}

export type Outlook =
  | { kind: 'stopped'; because: 'acknowledged' | 'resolved' }
  | { kind: 'starting' }
  | { kind: 'not_started' }
  | { kind: 'finished'; lastStage: number | null }
  | {
      kind: 'next';
      /** Null when the plan is not known (neither the history nor the policy may be read). */
      stage: PlanStage | null;
      /** Above the current stage's cycle: stage 1 again. */
      repeat: boolean;
      repeatIntervalMinutes: number;
      dueAt: string;
    };

/** The plan the escalation started with (the newest EscalationStarted of the history), if the history holds it. */
export function planFromHistory(events: IncidentEvent[]): EscalationPlan | undefined {
  const started = [...events].reverse().find((event) => event.type === 'EscalationStarted');
  if (!started) return undefined;
  const data = started.data as { policyName: string; stages: PlanStage[]; repeatIntervalMinutes: number };
  return {
    policyName: data.policyName,
    stages: data.stages,
    repeatIntervalMinutes: data.repeatIntervalMinutes,
    source: 'started',
  };
}

export function planFromPolicy(policy: EscalationPolicy): EscalationPlan {
  return {
    policyName: policy.name,
    stages: policy.stages.map((stage) => ({
      stageOrder: stage.stage_order,
      delayMinutes: stage.delay_minutes,
      targets: stage.targets.map((t) => ({ ...t, channels: t.channels ?? [] })),
    })),
    repeatIntervalMinutes: policy.repeat_interval_minutes,
    source: 'policy',
  };
}

export function escalationOutlook(incident: Incident, plan: EscalationPlan | undefined): Outlook {
  if (incident.status !== 'triggered') return { kind: 'stopped', because: incident.status };
  const escalation = incident.escalation;
  if (!escalation || escalation.status === 'pending') return { kind: 'starting' };
  if (escalation.status === 'not_started') return { kind: 'not_started' };
  if (escalation.status === 'cancelled')
    return { kind: 'stopped', because: escalation.cancel_reason ?? 'acknowledged' };
  const current = escalation.current_stage;
  const stages = [...(plan?.stages ?? [])].sort((a, b) => a.stageOrder - b.stageOrder);
  const repeatIntervalMinutes = plan?.repeatIntervalMinutes ?? 0;
  // The server's due time is the truth; the plan says which stage it is and whom it pages.
  const dueAt = incident.next_escalation_at ?? null;
  if (!current) {
    return dueAt
      ? { kind: 'next', stage: stages[0] ?? null, repeat: false, repeatIntervalMinutes, dueAt }
      : { kind: 'starting' };
  }
  if (!dueAt) return { kind: 'finished', lastStage: current.stage_order };
  const index = stages.findIndex((stage) => stage.stageOrder === current.stage_order);
  const following = index >= 0 ? stages[index + 1] : undefined;
  if (following) return { kind: 'next', stage: following, repeat: false, repeatIntervalMinutes, dueAt };
  if (index >= 0 && repeatIntervalMinutes > 0)
    return { kind: 'next', stage: stages[0]!, repeat: true, repeatIntervalMinutes, dueAt };
  return { kind: 'next', stage: null, repeat: false, repeatIntervalMinutes, dueAt };
}

/** Every schedule the plan pages through, once each, in stage order. */
export function scheduleIds(plan: EscalationPlan | undefined): string[] {
  const ids = (plan?.stages ?? []).flatMap((stage) =>
    stage.targets.filter((t) => t.type === 'schedule').map((t) => t.id),
  );
  return [...new Set(ids)];
}
