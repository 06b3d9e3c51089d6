/**
 * Delivering what a fired stage resolved to (or the all-clear), one recipient and medium at a
 * time, and recording each outcome on the incident's stream as NotificationDelivered,
 * NotificationRetryScheduled (a failure another attempt may cure, while attempts remain:
 * src/events/delivery-retry.ts) or NotificationFailed (final). Deliveries carry a key derived from
 * (incident, stage, cycle, recipient, medium), so a delivery repeated after a crash or retried
 * reaches the receiver with the same key.
 */
import type { EventStore } from '../../eventstore/port.js';
import { isRetryable, nextRetryAt } from '../../events/delivery-retry.js';
import { deliveryKey, type DeliveryKind, type Recipient } from '../../events/escalation.js';
import { incidentStream } from '../../events/incident.js';
import type {
  AlertActions,
  AlertMessage,
  DeliveryOutcome,
  NotifyPort,
  NotifyTarget,
} from '../../gateways/notify/port.js';
import type { ResolvedRecipient } from './target-resolution.js';

export const ESCALATION_ACTOR = 'system:escalation';

export interface DeliveryContext {
  eventStore: EventStore;
  notify: NotifyPort;
  now: () => Date;
  tenantId: string;
  incidentId: string;
  /** The event that caused these deliveries (stage fired, incident resolved). */
  causationId: string;
  /** Signed acknowledge/resolve links for one recipient of a page (src/action-links); absent: pages carry none. */
  actionLinks?: (
    tenantId: string,
    incidentId: string,
    recipient: Recipient,
    target: NotifyTarget,
  ) => Promise<AlertActions | undefined>;
}

export interface DeliveryRound {
  kind: DeliveryKind;
  stageOrder: number | null;
  cycle: number | null;
  message: AlertMessage;
  /** Attempts already made, by idempotency key (retries); absent keys are first attempts. */
  attemptsMade?: ReadonlyMap<string, number>;
}

function outcomeEvent(
  context: DeliveryContext,
  round: DeliveryRound,
  recipient: Recipient,
  key: string,
  outcome: DeliveryOutcome | { error: string },
) {
  const base = {
    incidentId: context.incidentId,
    kind: round.kind,
    stageOrder: round.stageOrder,
    cycle: round.cycle,
    recipientKey: recipient.key,
    via: recipient.via,
    medium: recipient.medium,
    idempotencyKey: key,
    at: context.now().toISOString(),
  };
  if ('ok' in outcome && outcome.ok) {
    return {
      type: 'NotificationDelivered',
      data: { ...base, target: outcome.target, statusCode: outcome.status_code ?? null, latencyMs: outcome.latency_ms },
    };
  }
  const error =
    'ok' in outcome
      ? { kind: outcome.error?.kind ?? 'unknown', message: outcome.error?.message ?? 'delivery failed' }
      : { kind: 'unreachable', message: outcome.error };
  const target = 'ok' in outcome ? outcome.target : (recipient.key ?? `${recipient.via.type}:${recipient.via.id}`);
  const statusCode = 'ok' in outcome ? (outcome.status_code ?? null) : null;
  const latencyMs = 'ok' in outcome ? outcome.latency_ms : null;
  const attempt = (round.attemptsMade?.get(key) ?? 0) + 1;
  const retryAt = 'ok' in outcome && isRetryable(outcome) ? nextRetryAt(attempt, context.now().getTime()) : null;
  if (retryAt !== null) {
    return {
      type: 'NotificationRetryScheduled',
      data: { ...base, target, statusCode, latencyMs, error, attempt, retryAt: new Date(retryAt).toISOString() },
    };
  }
  return { type: 'NotificationFailed', data: { ...base, target, statusCode, latencyMs, error } };
}

const keyOf = (incidentId: string, round: Pick<DeliveryRound, 'kind' | 'stageOrder' | 'cycle'>, recipient: Recipient) =>
  deliveryKey(
    incidentId,
    round.kind,
    round.stageOrder,
    round.cycle,
    recipient.key ?? `${recipient.via.type}:${recipient.via.id}`,
    recipient.medium ?? 'none',
  );

/**
 * A page of a triggered incident carries links to acknowledge or resolve it, minted for this
 * recipient; the all-clear and acknowledgement notices do not. Links that cannot be minted (the
 * tenant's key could not be read) must not cost the page: it goes out without them.
 */
async function withActions(
  context: DeliveryContext,
  round: DeliveryRound,
  recipient: Recipient,
  target: NotifyTarget,
): Promise<AlertMessage> {
  if (!context.actionLinks || round.kind !== 'stage' || round.message.status !== 'triggered') return round.message;
  const actions = await context
    .actionLinks(context.tenantId, context.incidentId, recipient, target)
    .catch(() => undefined);
  return actions ? { ...round.message, actions } : round.message;
}

/** Delivers to every recipient (unreachable ones are recorded as failed) and records each outcome. */
export async function deliverRound(
  context: DeliveryContext,
  round: DeliveryRound,
  recipients: ResolvedRecipient[],
): Promise<void> {
  await Promise.all(
    recipients.map(async ({ recipient, target }) => {
      const key = keyOf(context.incidentId, round, recipient);
      const outcome = target
        ? await context.notify.deliver(target, await withActions(context, round, recipient, target), key)
        : { error: recipient.unreachable ?? 'unreachable' };
      const event = outcomeEvent(context, round, recipient, key, outcome);
      await context.eventStore.append(
        incidentStream(context.incidentId),
        [
          {
            type: event.type,
            data: event.data,
            metadata: {
              tenantId: context.tenantId,
              actor: ESCALATION_ACTOR,
              correlationId: context.incidentId,
              causationId: context.causationId,
              occurredAt: context.now().toISOString(),
            },
          },
        ],
        { expectedRevision: 'any' },
      );
    }),
  );
}
