/**
 * One look at one incident: read its stream, do what is due, say when to look again. Everything
 * the escalation manager does goes through here, serialised per incident by the manager.
 *
 *   triggered, escalation pending → EscalationStarted with the policy as it is now (or NotStarted)
 *   triggered, a stage due        → EscalationStageFired, expecting the revision read, then deliveries
 *   a fired stage without outcomes (a crash) and older than the grace → deliver the missing ones again
 *   acknowledged                  → pager services paged so far are told (they stop escalating too)
 *   resolved                      → the all-clear to everyone paged who has not had it
 *
 * Appends expect the revision that was read, so among several instances exactly one fires each
 * stage; an acknowledgement racing a due stage makes the stage's append fail, and nothing is sent.
 */
import type { Logger } from 'pino';
import { toDomainEvent } from '../../commanding/command-handler.js';
import { isWrongExpectedRevision, type EventStore, type EventToAppend } from '../../eventstore/port.js';
import { awaitingAcknowledgement, awaitingAllClear, nextDueStage, undeliveredRecipients, type EscalationPlan } from '../../events/escalation.js';
import { evolveIncident, incidentStream, initialIncidentState, type IncidentState, type IncidentStreamEvent } from '../../events/incident.js';
import type { NotifyPort } from '../../gateways/notify/port.js';
import { alertMessageOf } from './alert-message.js';
import { reachAgain } from './recipients-by-key.js';
import { deliverRound, ESCALATION_ACTOR, type DeliveryRound } from './stage-delivery.js';
import { resolveStageTargets, type TargetDirectory } from './target-resolution.js';

/** Deliveries of a fired stage still missing after this long are made again (another instance may be mid-delivery before). */
export const REDELIVERY_GRACE_MS = 30_000;
const MAX_STEPS = 20;

export interface ReconcilerDeps {
  eventStore: EventStore;
  notify: NotifyPort;
  directory: TargetDirectory;
  now: () => Date;
  logger: Logger;
  /** The policy of the tenant as it is now (null: gone). */
  findPolicy: (tenantId: string, policyId: string) => Promise<Pick<EscalationPlan, 'policyName' | 'stages' | 'repeatIntervalMinutes'> | null>;
  incidentUrl: (incidentId: string) => string;
  onStageFired?: (lateSeconds: number) => void;
}

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
  return { state, revision: events.at(-1)!.revision, tenantId: events[0]!.metadata.tenantId, lastEventId: events.at(-1)!.id };
}

/** Returns when to look at the incident again (epoch ms), or null when nothing more is due. */
export async function reconcileIncident(deps: ReconcilerDeps, incidentId: string): Promise<number | null> {
  for (let step = 0; step < MAX_STEPS; step++) {
    const loaded = await load(deps.eventStore, incidentId);
    if (!loaded || !loaded.state.exists) return null;
    const { state, tenantId, revision, lastEventId } = loaded;
    const now = deps.now();
    const meta = () => ({ tenantId, actor: ESCALATION_ACTOR, correlationId: incidentId, causationId: lastEventId, occurredAt: deps.now().toISOString() });
    const append = async (event: Omit<EventToAppend, 'metadata'>) => {
      try {
        await deps.eventStore.append(incidentStream(incidentId), [{ ...event, metadata: meta() }], { expectedRevision: revision });
        return true;
      } catch (error) {
        if (isWrongExpectedRevision(error)) return false; // someone else moved the incident on: read again
        throw error;
      }
    };
    const context = { eventStore: deps.eventStore, notify: deps.notify, now: deps.now, tenantId, incidentId, causationId: lastEventId };
    const round = (partial: Omit<DeliveryRound, 'message'>): DeliveryRound => ({ ...partial, message: alertMessageOf(state, deps.incidentUrl(incidentId), now) });
    const escalation = state.escalation;

    if (state.status === 'resolved') {
      const waiting = awaitingAllClear(escalation);
      if (waiting.length === 0) return null;
      const recipients = await Promise.all(waiting.map((p) => reachAgain(deps.directory, tenantId, { key: p.key, via: p.via, medium: p.medium, unreachable: null })));
      await deliverRound(context, round({ kind: 'resolution', stageOrder: null, cycle: null }), recipients);
      return null;
    }
    if (state.status === 'acknowledged') {
      const pagers = awaitingAcknowledgement(escalation);
      if (pagers.length === 0) return null;
      const recipients = await Promise.all(pagers.map((p) => reachAgain(deps.directory, tenantId, { key: p.key, via: p.via, medium: p.medium, unreachable: null })));
      await deliverRound(context, round({ kind: 'acknowledgement', stageOrder: null, cycle: null }), recipients);
      continue;
    }
    if (state.status !== 'triggered') return null;

    if (escalation.status === 'pending') {
      const policy = await deps.findPolicy(tenantId, state.escalation_policy_id);
      await append(policy
        ? { type: 'EscalationStarted', data: { incidentId, policyId: state.escalation_policy_id, ...policy, startedAt: state.triggered_at } }
        : { type: 'EscalationNotStarted', data: { incidentId, policyId: state.escalation_policy_id, reason: 'the escalation policy no longer exists', at: now.toISOString() } });
      continue;
    }
    if (escalation.status !== 'running' || !escalation.plan) return null;

    const missing = undeliveredRecipients(escalation);
    if (missing.length > 0 && escalation.lastFired) {
      const retryAt = Date.parse(escalation.lastFired.firedAt) + REDELIVERY_GRACE_MS;
      if (retryAt > now.getTime()) return retryAt;
      const recipients = await Promise.all(missing.map((r) => reachAgain(deps.directory, tenantId, r)));
      await deliverRound(context, round({ kind: 'stage', stageOrder: escalation.lastFired.stageOrder, cycle: escalation.lastFired.cycle }), recipients);
      continue;
    }

    const due = nextDueStage(escalation.plan, escalation.lastFired);
    if (!due) return null;
    if (due.dueAt > now.getTime()) return due.dueAt;
    const stage = escalation.plan.stages.find((s) => s.stageOrder === due.stageOrder)!;
    const recipients = await resolveStageTargets(deps.directory, tenantId, stage.targets, now);
    const fired = await append({
      type: 'EscalationStageFired',
      data: {
        incidentId, stageOrder: due.stageOrder, cycle: due.cycle, dueAt: new Date(due.dueAt).toISOString(), firedAt: now.toISOString(),
        recipients: recipients.map((r) => r.recipient),
      },
    });
    if (!fired) continue;
    deps.onStageFired?.((now.getTime() - due.dueAt) / 1000);
    await deliverRound(context, round({ kind: 'stage', stageOrder: due.stageOrder, cycle: due.cycle }), recipients);
  }
  deps.logger.warn({ incidentId }, 'escalation: the incident kept changing; looking again later');
  return deps.now().getTime() + 1000;
}
