/**
 * The one decider of alerts from outside: every receiver (Events API v2, and the Alertmanager,
 * SNS and generic JSON receivers built on the same model) hands it a NormalizedAlert
 * (src/events/inbound-alert.ts), and it decides from the dedup key's latest incident alone:
 *
 *   trigger      no incident of the key, or its latest resolved → open the next one (it pages)
 *                its latest open (triggered or acknowledged)     → a repeat: counted, pages nobody
 *   acknowledge  its latest triggered                            → acknowledged, as the API would
 *   resolve      its latest open                                 → resolved (reason `auto`: its source says so)
 *   otherwise                                                    → ignored (PagerDuty drops them too)
 *
 * Every decision also records what the alert did (IntegrationAlertReceived, on the integration's
 * inbox stream). The acknowledgement and resolution are recorded as the integration
 * (`integration:<id>`): the events' actor, and their `by`.
 *
 * The state is the key's latest incident (src/events/incident.ts, evolveIncident): a trigger that
 * opens the next one is an IncidentTriggered of the next ordinal, whose id is fixed
 * (incidentIdFor), so two instances deciding the same open append to the same new stream and only
 * one lands (src/process/inbound/alert-intake.ts retries the other, which then sees a repeat).
 */
import type { Decider } from '../src/commanding/decider.js';
import {
  evolveIncident,
  incidentIdFor,
  initialIncidentState,
  type IncidentEvent,
  type IncidentState,
} from '../src/events/incident.js';
import {
  integrationActor,
  integrationSource,
  integrationSubject,
  type AlertOutcome,
  type IntegrationAlertReceivedData,
  type NormalizedAlert,
} from '../src/events/inbound-alert.js';

export interface ReceiveAlert {
  kind: 'ReceiveAlert';
  alert: NormalizedAlert;
  /** The integration's escalation policy: who a new incident pages. */
  escalationPolicyId: string;
}

export type InboundAlertEvent =
  | IncidentEvent
  | { type: 'IntegrationAlertReceived'; data: IntegrationAlertReceivedData };

/** The headline of a trigger that carries none (a sender's acknowledge never opens one). */
const untitled = (alert: NormalizedAlert) => alert.title ?? `Alert ${alert.dedupKey}`;

export function decideInboundAlert(alert: NormalizedAlert, latest: IncidentState, policyId: string, now: Date) {
  const at = now.toISOString();
  const by = integrationActor(alert.integrationId);
  const record = (outcome: AlertOutcome, incidentId: string | null): InboundAlertEvent => ({
    type: 'IntegrationAlertReceived',
    data: {
      integrationId: alert.integrationId,
      dedupKey: alert.dedupKey,
      action: alert.action,
      outcome,
      incidentId,
      title: alert.title,
      severity: alert.severity,
      at,
    },
  });
  const open = latest.exists && latest.status !== 'resolved' ? latest : null;
  switch (alert.action) {
    case 'trigger': {
      if (open) return [record('repeated', open.id)];
      const subject = integrationSubject(alert.integrationId, alert.dedupKey);
      const ordinal = (latest.exists ? latest.ordinal : 0) + 1;
      const incidentId = incidentIdFor(subject, ordinal);
      const triggered: InboundAlertEvent = {
        type: 'IncidentTriggered',
        data: {
          incidentId,
          source: integrationSource(alert.integrationId),
          subject,
          title: untitled(alert),
          detail: null,
          ruleIds: [],
          ruleId: null,
          ruleName: null,
          ordinal,
          currentValue: null,
          severity: alert.severity,
          metric: null,
          condition: null,
          threshold: null,
          envId: null,
          clusterId: null,
          escalationPolicyId: policyId,
          triggeredAt: at,
          dedupKey: alert.dedupKey,
          sender: alert.sender,
        },
      };
      return [triggered, record('opened', incidentId)];
    }
    case 'acknowledge':
      if (!open || open.status !== 'triggered') return [record('ignored', open?.id ?? null)];
      return [
        { type: 'IncidentAcknowledged', data: { incidentId: open.id, by, at } } satisfies InboundAlertEvent,
        record('acknowledged', open.id),
      ];
    case 'resolve':
      if (!open) return [record('ignored', null)];
      return [
        {
          type: 'IncidentResolved',
          data: { incidentId: open.id, by, at, reason: 'auto', note: `resolved by its sender (${by})`, value: null },
        } satisfies InboundAlertEvent,
        record('resolved', open.id),
      ];
  }
}

/** The same decision as a Decider over the key's latest incident (given/when/then; an alert's record changes no incident). */
export const inboundAlertDecider: Decider<IncidentState, ReceiveAlert, InboundAlertEvent> = {
  initialState: initialIncidentState,
  evolve: (state, event) => (event.type === 'IntegrationAlertReceived' ? state : evolveIncident(state, event)),
  decide: (command, state, { now }) => decideInboundAlert(command.alert, state, command.escalationPolicyId, now),
};
