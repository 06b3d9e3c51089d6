/**
 * Escalation, the model: the events the escalation manager appends to an incident's stream, so
 * auditors read the whole story (trigger, every stage fired, every delivery, acknowledgement,
 * resolution) from one stream; and the pure timing rules (SPEC.md, Escalation timing).
 *
 * Timing: stage 1 fires when the escalation starts (at trigger time); each later stage fires its
 * `delay_minutes` after the previous stage fired; after the last stage, when
 * `repeat_interval_minutes` > 0, stage 1 fires again that many minutes after the last stage fired,
 * and the cycle repeats. Due times chain on fire times, so a stage that came due while the platform
 * was down fires once when it is back, and the next one is due its delay after that (never a burst
 * of missed cycles). Acknowledgement and resolution end the escalation.
 */
import { z } from 'zod';
import {
  DELIVERY_KINDS,
  type DeliveryKind,
  type EscalationCancelReason,
  type EscalationStatus,
} from '../contract/vocabulary.js';
import { DELIVERY_CHANNELS, TARGET_TYPES } from './escalation-policy.js';
import { NOTIFY_MEDIA, type NotifyMedium } from './vocabulary.js';

const stageSnapshot = z.object({
  stageOrder: z.number().int(),
  delayMinutes: z.number().int(),
  targets: z.array(
    z.object({ type: z.enum(TARGET_TYPES), id: z.uuid(), channels: z.array(z.enum(DELIVERY_CHANNELS)) }),
  ),
});

export { DELIVERY_KINDS, type DeliveryKind };

/** One person or channel a stage reached (or tried to), resolved from a policy target when the stage fired. */
const recipient = z.object({
  /** `user:<id>` or `channel:<id>`; null when the target resolved to nobody. */
  key: z.string().nullable(),
  /** The policy target it came from. */
  via: z.object({ type: z.enum(TARGET_TYPES), id: z.uuid() }),
  medium: z.enum(NOTIFY_MEDIA).nullable(),
  /** Why nobody could be reached through this target (no one on call, deleted channel, no phone…). */
  unreachable: z.string().nullable(),
});

const delivery = {
  incidentId: z.uuid(),
  /**
   * `stage`: a stage's page; `resolution`: the all-clear to everyone paged before; `acknowledgement`:
   * the pager services paged before are told, so they stop escalating on their side.
   */
  kind: z.enum(DELIVERY_KINDS),
  stageOrder: z.number().int().nullable(),
  cycle: z.number().int().nullable(),
  recipientKey: z.string().nullable(),
  via: z.object({ type: z.enum(TARGET_TYPES), id: z.uuid() }).nullable(),
  medium: z.enum(NOTIFY_MEDIA).nullable(),
  /** Non-secret description of where it went (channel id, masked address). */
  target: z.string(),
  idempotencyKey: z.string(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().nullable(),
  at: z.iso.datetime(),
};

export const escalationEvents = {
  /** The policy as it was when the incident triggered: later edits never reshuffle alerts in flight. */
  EscalationStarted: z.object({
    incidentId: z.uuid(),
    policyId: z.uuid(),
    policyName: z.string(),
    stages: z.array(stageSnapshot),
    repeatIntervalMinutes: z.number().int(),
    startedAt: z.iso.datetime(),
  }),
  /** The incident's policy could not be read (deleted since): nobody will be paged. */
  EscalationNotStarted: z.object({
    incidentId: z.uuid(),
    policyId: z.uuid(),
    reason: z.string(),
    at: z.iso.datetime(),
  }),
  EscalationStageFired: z.object({
    incidentId: z.uuid(),
    stageOrder: z.number().int(),
    cycle: z.number().int(),
    dueAt: z.iso.datetime(),
    firedAt: z.iso.datetime(),
    recipients: z.array(recipient),
  }),
  /**
   * A maintenance window covering the incident's rule became active while stages remained: no
   * further stage fires until it ends (`nextStageOrder`, `nextCycle`: the stage held back).
   */
  EscalationHeld: z.object({
    incidentId: z.uuid(),
    windowId: z.uuid(),
    at: z.iso.datetime(),
    nextStageOrder: z.number().int(),
    nextCycle: z.number().int(),
  }),
  /** The window ended (or was ended, or deleted) with the incident still unacknowledged: the held stage fires now if due. */
  EscalationResumed: z.object({ incidentId: z.uuid(), windowId: z.uuid(), at: z.iso.datetime() }),
  NotificationDelivered: z.object(delivery),
  /** The final failure: not worth trying again, or the attempts are spent (src/events/delivery-retry.ts). */
  NotificationFailed: z.object({ ...delivery, error: z.object({ kind: z.string(), message: z.string() }) }),
  /** Attempt `attempt` failed in a way another may cure (429, 5xx, network): tried again at `retryAt`, same key. */
  NotificationRetryScheduled: z.object({
    ...delivery,
    attempt: z.number().int().min(1),
    retryAt: z.iso.datetime(),
    error: z.object({ kind: z.string(), message: z.string() }),
  }),
};

type Data<K extends keyof typeof escalationEvents> = z.infer<(typeof escalationEvents)[K]>;
export type EscalationEvent = {
  [K in keyof typeof escalationEvents]: { type: K; data: Data<K> };
}[keyof typeof escalationEvents];
export type EscalationPlan = Data<'EscalationStarted'>;
export type StageSnapshot = z.infer<typeof stageSnapshot>;
export type Recipient = z.infer<typeof recipient>;
export type DeliveryRecord = Data<'NotificationDelivered'> & { ok: boolean; error?: { kind: string; message: string } };
export type FiredStage = Data<'EscalationStageFired'>;
export const ESCALATION_EVENT_TYPES = Object.keys(escalationEvents) as EscalationEvent['type'][];

/** A delivery waiting for its next attempt: everything needed to make it again. */
export interface PendingRetry {
  idempotencyKey: string;
  kind: DeliveryKind;
  stageOrder: number | null;
  cycle: number | null;
  recipient: Recipient;
  /** Attempts made so far. */
  attempt: number;
  retryAt: string;
}

export interface DueStage {
  stageOrder: number;
  cycle: number;
  dueAt: number;
}

const MINUTE_MS = 60_000;

/** The next stage to fire, given the plan and the last stage fired (null: the escalation has run its course). */
export function nextDueStage(
  plan: Pick<EscalationPlan, 'stages' | 'repeatIntervalMinutes' | 'startedAt'>,
  lastFired: Pick<FiredStage, 'stageOrder' | 'cycle' | 'firedAt'> | null,
): DueStage | null {
  const stages = [...plan.stages].sort((a, b) => a.stageOrder - b.stageOrder);
  if (stages.length === 0) return null;
  if (!lastFired) return { stageOrder: stages[0]!.stageOrder, cycle: 0, dueAt: Date.parse(plan.startedAt) };
  const firedAt = Date.parse(lastFired.firedAt);
  const index = stages.findIndex((stage) => stage.stageOrder === lastFired.stageOrder);
  const next = stages[index + 1];
  if (next)
    return { stageOrder: next.stageOrder, cycle: lastFired.cycle, dueAt: firedAt + next.delayMinutes * MINUTE_MS };
  if (plan.repeatIntervalMinutes > 0)
    return {
      stageOrder: stages[0]!.stageOrder,
      cycle: lastFired.cycle + 1,
      dueAt: firedAt + plan.repeatIntervalMinutes * MINUTE_MS,
    };
  return null;
}

/** One key per delivery: the same on every retry and after a restart, so a receiver can drop duplicates. */
export const deliveryKey = (
  incidentId: string,
  kind: DeliveryKind,
  stageOrder: number | null,
  cycle: number | null,
  recipientKey: string,
  medium: string,
) => `${incidentId}:${kind}:${stageOrder ?? '-'}:${cycle ?? '-'}:${recipientKey}:${medium}`;

export {
  ESCALATION_CANCEL_REASONS,
  ESCALATION_STATUSES,
  type EscalationCancelReason,
  type EscalationStatus,
} from '../contract/vocabulary.js';

/** What an incident knows of its escalation: folded from the escalation events on its stream. */
export interface IncidentEscalation {
  /**
   * pending: not started yet; running: stages being fired; not_started: its policy was gone;
   * cancelled: the incident was acknowledged or resolved first (`cancelReason` says which).
   */
  status: EscalationStatus;
  /** What cancelled it (the first of the two: an acknowledged incident later resolved stays `acknowledged`). */
  cancelReason: EscalationCancelReason | null;
  plan: EscalationPlan | null;
  lastFired: FiredStage | null;
  /** `<recipientKey>:<medium>` of the last fired stage that have an outcome recorded. */
  lastFiredOutcomes: string[];
  /** Everyone a stage reached, once each: they get the all-clear on resolution. */
  paged: { key: string; medium: NotifyMedium; via: { type: (typeof TARGET_TYPES)[number]; id: string } }[];
  /** `<recipientKey>:<medium>` that have a resolution outcome. */
  resolutionOutcomes: string[];
  /** `<recipientKey>:<medium>` of pagers told of the acknowledgement. */
  acknowledgementOutcomes: string[];
  /** Deliveries waiting for another attempt (absent in states folded before retries existed). */
  retries?: PendingRetry[];
  /** The maintenance window holding the remaining stages (absent or null: not held). */
  heldBy?: string | null;
  /** The most recent deliveries, newest last (the stream holds all of them). */
  notified: {
    kind: DeliveryKind;
    stage_order: number | null;
    cycle: number | null;
    recipient: string | null;
    medium: string | null;
    target: string;
    ok: boolean;
    at: string;
    error: string | null;
  }[];
}

export const NOTIFIED_KEPT = 100;

export const initialEscalation = (): IncidentEscalation => ({
  status: 'pending',
  cancelReason: null,
  plan: null,
  lastFired: null,
  lastFiredOutcomes: [],
  paged: [],
  resolutionOutcomes: [],
  acknowledgementOutcomes: [],
  retries: [],
  notified: [],
});

const outcomeKey = (recipientKey: string | null, medium: string | null) => `${recipientKey ?? '-'}:${medium ?? '-'}`;

export function evolveEscalation(state: IncidentEscalation, event: EscalationEvent): IncidentEscalation {
  switch (event.type) {
    case 'EscalationStarted':
      // Started after a cancellation cannot be appended today (it expects the triggered revision); kept cancelled if an old log has it.
      return { ...state, status: state.status === 'cancelled' ? 'cancelled' : 'running', plan: event.data };
    case 'EscalationNotStarted':
      return { ...state, status: 'not_started' };
    case 'EscalationHeld':
      return { ...state, heldBy: event.data.windowId };
    case 'EscalationResumed':
      return { ...state, heldBy: null };
    case 'EscalationStageFired': {
      const reached = event.data.recipients.filter((r) => r.key !== null && r.medium !== null);
      const paged = [...state.paged];
      for (const r of reached) {
        if (!paged.some((p) => p.key === r.key && p.medium === r.medium))
          paged.push({ key: r.key!, medium: r.medium!, via: r.via });
      }
      return { ...state, lastFired: event.data, lastFiredOutcomes: [], paged };
    }
    case 'NotificationRetryScheduled': {
      const d = event.data;
      if (!d.via) return state;
      const pending: PendingRetry = {
        idempotencyKey: d.idempotencyKey,
        kind: d.kind,
        stageOrder: d.stageOrder,
        cycle: d.cycle,
        recipient: { key: d.recipientKey, via: d.via, medium: d.medium, unreachable: null },
        attempt: d.attempt,
        retryAt: d.retryAt,
      };
      return {
        ...state,
        retries: [...(state.retries ?? []).filter((r) => r.idempotencyKey !== d.idempotencyKey), pending],
      };
    }
    case 'NotificationDelivered':
    case 'NotificationFailed': {
      const d = event.data;
      // An outcome ends any retry of the same delivery.
      const settled = { ...state, retries: (state.retries ?? []).filter((r) => r.idempotencyKey !== d.idempotencyKey) };
      const key = outcomeKey(d.recipientKey, d.medium);
      const notified = [
        ...settled.notified,
        {
          kind: d.kind,
          stage_order: d.stageOrder,
          cycle: d.cycle,
          recipient: d.recipientKey,
          medium: d.medium,
          target: d.target,
          ok: event.type === 'NotificationDelivered',
          at: d.at,
          error: event.type === 'NotificationFailed' ? event.data.error.message : null,
        },
      ].slice(-NOTIFIED_KEPT);
      if (d.kind === 'resolution')
        return { ...settled, notified, resolutionOutcomes: [...settled.resolutionOutcomes, key] };
      if (d.kind === 'acknowledgement')
        return { ...settled, notified, acknowledgementOutcomes: [...(settled.acknowledgementOutcomes ?? []), key] };
      const current =
        settled.lastFired && d.stageOrder === settled.lastFired.stageOrder && d.cycle === settled.lastFired.cycle;
      return {
        ...settled,
        notified,
        lastFiredOutcomes: current ? [...settled.lastFiredOutcomes, key] : settled.lastFiredOutcomes,
      };
    }
  }
}

/**
 * The incident was acknowledged or resolved: an escalation that was going to page (pending or
 * running) is cancelled, and says why. One that never started (its policy was gone) stays so.
 */
export function cancelEscalation(state: IncidentEscalation, reason: EscalationCancelReason): IncidentEscalation {
  if (state.status !== 'pending' && state.status !== 'running') return state;
  return { ...state, status: 'cancelled', cancelReason: reason };
}

/** Whether a delivery of `kind` to this recipient and medium waits for another attempt (it is not missing, it is pending). */
const retrying = (
  state: IncidentEscalation,
  kind: DeliveryKind,
  key: string | null,
  medium: string | null,
  stage?: { stageOrder: number; cycle: number },
) =>
  (state.retries ?? []).some(
    (r) =>
      r.kind === kind &&
      r.recipient.key === key &&
      r.recipient.medium === medium &&
      (!stage || (r.stageOrder === stage.stageOrder && r.cycle === stage.cycle)),
  );

/** Recipients of the last fired stage still without an outcome nor a retry (a crash between firing and delivering). */
export const undeliveredRecipients = (state: IncidentEscalation): Recipient[] =>
  (state.lastFired?.recipients ?? []).filter(
    (r) =>
      !state.lastFiredOutcomes.includes(outcomeKey(r.key, r.medium)) &&
      !retrying(state, 'stage', r.key, r.medium, state.lastFired!),
  );

/** Everyone paged who has not had the all-clear yet (nor waits for another attempt at it). */
export const awaitingAllClear = (state: IncidentEscalation) =>
  state.paged.filter(
    (p) =>
      !state.resolutionOutcomes.includes(outcomeKey(p.key, p.medium)) &&
      !retrying(state, 'resolution', p.key, p.medium),
  );

/** Pager services paged that have not been told of the acknowledgement (the other media hold no state to update). */
export const awaitingAcknowledgement = (state: IncidentEscalation) =>
  state.paged.filter(
    (p) =>
      p.medium === 'pager' &&
      !(state.acknowledgementOutcomes ?? []).includes(outcomeKey(p.key, p.medium)) &&
      !retrying(state, 'acknowledgement', p.key, p.medium),
  );

/**
 * The retries still worth making in the incident's status: stage pages while it is triggered, the
 * acknowledgement while acknowledged, the all-clear once resolved (a page retried after an
 * acknowledgement would only page again; the resolve that follows an acknowledgement supersedes it).
 */
export function liveRetries(
  status: 'triggered' | 'acknowledged' | 'resolved',
  state: IncidentEscalation,
): PendingRetry[] {
  const kind: DeliveryKind =
    status === 'triggered' ? 'stage' : status === 'acknowledged' ? 'acknowledgement' : 'resolution';
  return (state.retries ?? []).filter((r) => r.kind === kind);
}
