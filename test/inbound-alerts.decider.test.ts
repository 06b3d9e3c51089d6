/**
 * The one decider of alerts from outside (commands/inbound-alerts.ts), given the dedup key's
 * latest incident, when an alert arrives, then the events: a trigger opens the key's next incident
 * (its fixed id, the integration as its source), a repeat while it is open only counts, an
 * acknowledge or resolve acts on the open one as the integration, and anything else is recorded as
 * ignored. Every decision records what the alert did.
 */
import test from 'ava';
import { inboundAlertDecider, type InboundAlertEvent, type ReceiveAlert } from '../commands/inbound-alerts.js';
import { incidentIdFor } from '../src/events/incident.js';
import type { InboundAction, NormalizedAlert } from '../src/events/inbound-alert.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const INTEGRATION = '00000000-0000-4000-8000-0000000000e1';
const POLICY = '00000000-0000-4000-8000-0000000000c1';
const AT = TEST_CONTEXT.now.toISOString();
const SUBJECT = `integration:${INTEGRATION}:etl-nightly`;
const FIRST = incidentIdFor(SUBJECT, 1);
const SECOND = incidentIdFor(SUBJECT, 2);

const sender = {
  source: 'airflow',
  component: null,
  group: null,
  class: null,
  timestamp: null,
  severity: 'error',
  custom_details: { dag: 'etl' },
  links: [],
  images: [],
  client: null,
  client_url: null,
  labels: null,
};
const alert = (action: InboundAction, over: Partial<NormalizedAlert> = {}): ReceiveAlert => ({
  kind: 'ReceiveAlert',
  escalationPolicyId: POLICY,
  alert: {
    integrationId: INTEGRATION,
    dedupKey: 'etl-nightly',
    action,
    title: action === 'trigger' ? 'ETL failed' : null,
    severity: 'high',
    sender,
    ...over,
  },
});
const record = (
  action: InboundAction,
  outcome: string,
  incidentId: string | null,
  title: string | null = null,
): InboundAlertEvent => ({
  type: 'IntegrationAlertReceived',
  data: {
    integrationId: INTEGRATION,
    dedupKey: 'etl-nightly',
    action,
    outcome: outcome as never,
    incidentId,
    title,
    severity: 'high',
    at: AT,
  },
});
const triggered = (incidentId: string, ordinal: number): InboundAlertEvent => ({
  type: 'IncidentTriggered',
  data: {
    incidentId,
    source: `integration:${INTEGRATION}`,
    subject: SUBJECT,
    title: 'ETL failed',
    detail: null,
    ruleIds: [],
    ruleId: null,
    ruleName: null,
    ordinal,
    currentValue: null,
    severity: 'high',
    metric: null,
    condition: null,
    threshold: null,
    envId: null,
    clusterId: null,
    escalationPolicyId: POLICY,
    triggeredAt: AT,
    dedupKey: 'etl-nightly',
    sender,
  },
});
const by = `integration:${INTEGRATION}`;
const acknowledged: InboundAlertEvent = { type: 'IncidentAcknowledged', data: { incidentId: FIRST, by, at: AT } };
const resolved: InboundAlertEvent = {
  type: 'IncidentResolved',
  data: { incidentId: FIRST, by, at: AT, reason: 'auto', note: `resolved by its sender (${by})`, value: null },
};

test('a trigger of a key with no incident opens its first, paging the integration policy', (t) => {
  deciderSpec(t, inboundAlertDecider)
    .given([])
    .when(alert('trigger'))
    .then([triggered(FIRST, 1), record('trigger', 'opened', FIRST, 'ETL failed')]);
});

test('a repeated trigger while the incident is open (triggered or acknowledged) only counts', (t) => {
  const spec = deciderSpec(t, inboundAlertDecider);
  spec
    .given([triggered(FIRST, 1)])
    .when(alert('trigger'))
    .then([record('trigger', 'repeated', FIRST, 'ETL failed')]);
  spec
    .given([triggered(FIRST, 1), acknowledged])
    .when(alert('trigger'))
    .then([record('trigger', 'repeated', FIRST, 'ETL failed')]);
});

test('a trigger after resolution opens a new incident, the next ordinal of the key', (t) => {
  deciderSpec(t, inboundAlertDecider)
    .given([triggered(FIRST, 1), resolved])
    .when(alert('trigger'))
    .then([{ ...triggered(SECOND, 2) }, record('trigger', 'opened', SECOND, 'ETL failed')]);
});

test('acknowledge acts on a triggered incident as the integration; twice, or with none open, is ignored', (t) => {
  const spec = deciderSpec(t, inboundAlertDecider);
  spec
    .given([triggered(FIRST, 1)])
    .when(alert('acknowledge'))
    .then([acknowledged, record('acknowledge', 'acknowledged', FIRST)]);
  spec
    .given([triggered(FIRST, 1), acknowledged])
    .when(alert('acknowledge'))
    .then([record('acknowledge', 'ignored', FIRST)]);
  spec
    .given([])
    .when(alert('acknowledge'))
    .then([record('acknowledge', 'ignored', null)]);
  spec
    .given([triggered(FIRST, 1), resolved])
    .when(alert('acknowledge'))
    .then([record('acknowledge', 'ignored', null)]);
});

test('resolve closes the open incident (triggered or acknowledged); with none open it is ignored', (t) => {
  const spec = deciderSpec(t, inboundAlertDecider);
  spec
    .given([triggered(FIRST, 1)])
    .when(alert('resolve'))
    .then([resolved, record('resolve', 'resolved', FIRST)]);
  spec
    .given([triggered(FIRST, 1), acknowledged])
    .when(alert('resolve'))
    .then([resolved, record('resolve', 'resolved', FIRST)]);
  spec
    .given([])
    .when(alert('resolve'))
    .then([record('resolve', 'ignored', null)]);
  spec
    .given([triggered(FIRST, 1), resolved])
    .when(alert('resolve'))
    .then([record('resolve', 'ignored', null)]);
});

test('a trigger with no headline is titled by its key', (t) => {
  const [opened] = inboundAlertDecider.decide(alert('trigger', { title: null }), { exists: false }, TEST_CONTEXT);
  t.is((opened!.data as { title: string }).title, 'Alert etl-nightly');
});
