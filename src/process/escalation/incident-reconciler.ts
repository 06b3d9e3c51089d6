/**
 * One look at one incident: read its stream, do what is due, say when to look again. Everything
 * the escalation manager does goes through here, serialised per incident by the manager.
 *
 *   triggered, escalation pending → EscalationStarted with the policy as it is now (or NotStarted)
 *   triggered, a stage due        → EscalationStageFired, expecting the revision read, then deliveries
 *   a fired stage without outcomes (a crash) and older than the grace (the lease) → deliver the missing ones again
 *   acknowledged                  → pager services paged so far are told (they stop escalating too)
 *   resolved                      → the all-clear to everyone paged who has not had it
 *   a maintenance window covers it → EscalationHeld; no stage fires until EscalationResumed
 *                                   (escalation-hold.ts), appended when no window covers it any more
 *   a delivery retry due          → made again with its key (stage pages while triggered, the
 *                                   acknowledgement while acknowledged, the all-clear once resolved)
 *
 * Retries live on the stream (NotificationRetryScheduled), so they survive a restart: the manager
 * lists incidents with one waiting (`next_delivery_retry_at`) and the reconcile wakes up for it.
 *
 * Appends expect the revision that was read, so among several instances exactly one fires each
 * stage; an acknowledgement racing a due stage makes the stage's append fail, and nothing is sent.
 */
import type { Logger } from 'pino';
import { toDomainEvent } from '../../commanding/command-handler.js';
import { isWrongExpectedRevision, type EventStore, type EventToAppend } from '../../eventstore/port.js';
import {
  awaitingAcknowledgement,
  awaitingAllClear,
  liveRetries,
  nextDueStage,
  undeliveredRecipients,
  type EscalationPlan,
  type PendingRetry,
} from '../../events/escalation.js';
import {
  evolveIncident,
  incidentStream,
  initialIncidentState,
  type IncidentState,
  type IncidentStreamEvent,
} from '../../events/incident.js';
import type { NotifyPort } from '../../gateways/notify/port.js';
import { alertMessageOf } from './alert-message.js';
import { decideHold, type HoldDecision, type HoldingWindow } from './escalation-hold.js';
import { reachAgain } from './recipients-by-key.js';
import { deliverRound, ESCALATION_ACTOR, type DeliveryContext, type DeliveryRound } from './stage-delivery.js';
import { resolveStageTargets, type TargetDirectory } from './target-resolution.js';

/**
 * Deliveries of a fired stage still missing this long after it fired are made again (before, the
 * member that fired it may still be delivering). The composition sets it to the cluster's lease: a
 * member that stops right after firing loses its lease by then, and a survivor owns the incident
 * from that moment on, so the redelivery waits for nothing but the takeover. Default: the default lease.
 */
export const DEFAULT_REDELIVERY_GRACE_MS = 10_000;
const MAX_STEPS = 20;

export interface ReconcilerDeps {
  eventStore: EventStore;
  notify: NotifyPort;
  directory: TargetDirectory;
  now: () => Date;
  logger: Logger;
  /** The policy of the tenant as it is now (null: gone). */
  findPolicy: (
    tenantId: string,
    policyId: string,
  ) => Promise<Pick<EscalationPlan, 'policyName' | 'stages' | 'repeatIntervalMinutes'> | null>;
  incidentUrl: (incidentId: string) => string;
  onStageFired?: (lateSeconds: number) => void;
  /** The tenant's maintenance windows that can still be active at `at` (default: none). */
  maintenanceWindows?: (tenantId: string, at: Date) => Promise<HoldingWindow[]>;
  /** Signed acknowledge/resolve links for each recipient of a page (default: none). */
  actionLinks?: DeliveryContext['actionLinks'];
  /** How long after a stage fired its missing deliveries are made again (default DEFAULT_REDELIVERY_GRACE_MS). */
  redeliveryGraceMs?: number;
}

const NOT_HELD: HoldDecision = { action: 'none', lookAgainAt: null };

interface Loaded {
  state: IncidentState;
  revision: bigint;
  tenantId: string;
  lastEventId: string;
}

async function load(eventStore: EventStore, incidentId: string): Promise<Loaded | null> {
  const events = await eventStore.readStream(incidentStream(incidentId));
  if (events.length === 0) return null;
  const state = events.map((e) => toDomainEvent<IncidentStreamEvent>(e)).reduce(evolveIncident, initialIncidentState());
  return {
    state,
    revision: events.at(-1)!.revision,
    tenantId: events[0]!.metadata.tenantId,
    lastEventId: events.at(-1)!.id,
  };
}

const earliest = (...times: (number | null)[]) => {
  const set = times.filter((t): t is number => t !== null);
  return set.length === 0 ? null : Math.min(...set);
};

/** Retries due now, grouped into rounds (one per kind, stage and cycle). */
function dueRounds(retries: PendingRetry[], now: number) {
  const rounds = new Map<string, PendingRetry[]>();
  for (const retry of retries.filter((r) => Date.parse(r.retryAt) <= now)) {
    const id = `${retry.kind}:${retry.stageOrder}:${retry.cycle}`;
    rounds.set(id, [...(rounds.get(id) ?? []), retry]);
  }
  return [...rounds.values()];
}

/** Returns when to look at the incident again (epoch ms), or null when nothing more is due. */
export async function reconcileIncident(deps: ReconcilerDeps, incidentId: string): Promise<number | null> {
  for (let step = 0; step < MAX_STEPS; step++) {
    const loaded = await load(deps.eventStore, incidentId);
    if (!loaded || !loaded.state.exists) return null;
    const { state, tenantId, revision, lastEventId } = loaded;
    const now = deps.now();
    const meta = () => ({
      tenantId,
      actor: ESCALATION_ACTOR,
      correlationId: incidentId,
      causationId: lastEventId,
      occurredAt: deps.now().toISOString(),
    });
    const append = async (event: Omit<EventToAppend, 'metadata'>) => {
      try {
        await deps.eventStore.append(incidentStream(incidentId), [{ ...event, metadata: meta() }], {
          expectedRevision: revision,
        });
        return true;
      } catch (error) {
        if (isWrongExpectedRevision(error)) return false; // someone else moved the incident on: read again
        throw error;
      }
    };
    const context: DeliveryContext = {
      eventStore: deps.eventStore,
      notify: deps.notify,
      now: deps.now,
      tenantId,
      incidentId,
      causationId: lastEventId,
      actionLinks: deps.actionLinks,
    };
    const round = (partial: Omit<DeliveryRound, 'message'>): DeliveryRound => ({
      ...partial,
      message: alertMessageOf(state, deps.incidentUrl(incidentId), now),
    });
    const escalation = state.escalation;

    const retries = liveRetries(state.status, escalation);
    const due = dueRounds(retries, now.getTime());
    if (due.length > 0) {
      for (const pending of due) {
        const [{ kind, stageOrder, cycle }] = pending as [PendingRetry];
        const recipients = await Promise.all(pending.map((r) => reachAgain(deps.directory, tenantId, r.recipient)));
        await deliverRound(
          context,
          {
            ...round({ kind, stageOrder, cycle }),
            attemptsMade: new Map(pending.map((r) => [r.idempotencyKey, r.attempt])),
          },
          recipients,
        );
      }
      continue;
    }
    const nextRetry = earliest(...retries.map((r) => Date.parse(r.retryAt)));

    if (state.status === 'resolved') {
      const waiting = awaitingAllClear(escalation);
      if (waiting.length === 0) return nextRetry;
      const recipients = await Promise.all(
        waiting.map((p) =>
          reachAgain(deps.directory, tenantId, { key: p.key, via: p.via, medium: p.medium, unreachable: null }),
        ),
      );
      await deliverRound(context, round({ kind: 'resolution', stageOrder: null, cycle: null }), recipients);
      continue;
    }
    if (state.status === 'acknowledged') {
      const pagers = awaitingAcknowledgement(escalation);
      if (pagers.length === 0) return nextRetry;
      const recipients = await Promise.all(
        pagers.map((p) =>
          reachAgain(deps.directory, tenantId, { key: p.key, via: p.via, medium: p.medium, unreachable: null }),
        ),
      );
      await deliverRound(context, round({ kind: 'acknowledgement', stageOrder: null, cycle: null }), recipients);
      continue;
    }
    if (state.status !== 'triggered') return nextRetry;

    if (escalation.status === 'pending') {
      const policy = await deps.findPolicy(tenantId, state.escalation_policy_id);
      await append(
        policy
          ? {
              type: 'EscalationStarted',
              data: { incidentId, policyId: state.escalation_policy_id, ...policy, startedAt: state.triggered_at },
            }
          : {
              type: 'EscalationNotStarted',
              data: {
                incidentId,
                policyId: state.escalation_policy_id,
                reason: 'the escalation policy no longer exists',
                at: now.toISOString(),
              },
            },
      );
      continue;
    }
    if (escalation.status !== 'running' || !escalation.plan) return nextRetry;

    const missing = undeliveredRecipients(escalation);
    if (missing.length > 0 && escalation.lastFired) {
      const redeliverAt =
        Date.parse(escalation.lastFired.firedAt) + (deps.redeliveryGraceMs ?? DEFAULT_REDELIVERY_GRACE_MS);
      if (redeliverAt > now.getTime()) return earliest(redeliverAt, nextRetry);
      const recipients = await Promise.all(missing.map((r) => reachAgain(deps.directory, tenantId, r)));
      await deliverRound(
        context,
        round({ kind: 'stage', stageOrder: escalation.lastFired.stageOrder, cycle: escalation.lastFired.cycle }),
        recipients,
      );
      continue;
    }

    const dueStage = nextDueStage(escalation.plan, escalation.lastFired);
    const heldBy = escalation.heldBy ?? null;
    // Nothing to hold and nothing held (only deliveries left to record): no window read, the
    // common case of every NotificationDelivered waking the incident.
    const hold =
      deps.maintenanceWindows && (heldBy !== null || dueStage !== null)
        ? decideHold({
            incident: { ruleId: state.rule_id, clusterId: state.cluster_id, severity: state.severity },
            heldBy,
            stageRemaining: dueStage !== null,
            windows: await deps.maintenanceWindows(tenantId, now),
            now: now.getTime(),
          })
        : NOT_HELD;
    if (hold.action === 'hold') {
      await append({
        type: 'EscalationHeld',
        data: {
          incidentId,
          windowId: hold.windowId,
          at: now.toISOString(),
          nextStageOrder: dueStage!.stageOrder,
          nextCycle: dueStage!.cycle,
        },
      });
      continue;
    }
    if (hold.action === 'resume') {
      await append({ type: 'EscalationResumed', data: { incidentId, windowId: hold.windowId, at: now.toISOString() } });
      continue;
    }
    if (heldBy !== null) return earliest(hold.lookAgainAt, nextRetry);
    if (!dueStage) return nextRetry;
    if (dueStage.dueAt > now.getTime()) return earliest(dueStage.dueAt, nextRetry, hold.lookAgainAt);
    const stage = escalation.plan.stages.find((s) => s.stageOrder === dueStage.stageOrder)!;
    const recipients = await resolveStageTargets(deps.directory, tenantId, stage.targets, now);
    const fired = await append({
      type: 'EscalationStageFired',
      data: {
        incidentId,
        stageOrder: dueStage.stageOrder,
        cycle: dueStage.cycle,
        dueAt: new Date(dueStage.dueAt).toISOString(),
        firedAt: now.toISOString(),
        recipients: recipients.map((r) => r.recipient),
      },
    });
    if (!fired) continue;
    deps.onStageFired?.((now.getTime() - dueStage.dueAt) / 1000);
    await deliverRound(
      context,
      round({ kind: 'stage', stageOrder: dueStage.stageOrder, cycle: dueStage.cycle }),
      recipients,
    );
  }
  deps.logger.warn({ incidentId }, 'escalation: the incident kept changing; looking again later');
  return deps.now().getTime() + 1000;
}
