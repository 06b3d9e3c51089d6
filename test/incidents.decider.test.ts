import test from 'ava';
import { incidentDecider } from '../commands/incidents.js';
import { incidentIdFor } from '../src/events/incident.js';
import type { IncidentEvent } from '../src/events/incident.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const ruleId = '11111111-1111-4111-8111-111111111111';
const incidentId = incidentIdFor(ruleId, 1);
const at = TEST_CONTEXT.now.toISOString();
const incident = {
  incidentId,
  ruleId,
  ruleName: 'Queue wait',
  ordinal: 1,
  currentValue: 45,
  severity: 'high' as const,
  metric: 'queue_time_seconds',
  condition: 'gt' as const,
  threshold: 30,
  envId: '22222222-2222-4222-8222-222222222222',
  clusterId: null,
  escalationPolicyId: '33333333-3333-4333-8333-333333333333',
};
const triggered: IncidentEvent = {
  type: 'IncidentTriggered',
  data: { ...incident, triggeredAt: '2026-03-01T11:00:00.000Z' },
};
const acknowledged: IncidentEvent = { type: 'IncidentAcknowledged', data: { incidentId, by: TEST_CONTEXT.actor, at } };
const resolved: IncidentEvent = {
  type: 'IncidentResolved',
  data: { incidentId, by: 'system:evaluator', at, reason: 'auto', note: null, value: 12 },
};

test('the rule n-th incident id is stable and differs per ordinal and rule', (t) => {
  t.is(incidentIdFor(ruleId, 1), incidentId);
  t.not(incidentIdFor(ruleId, 2), incidentId);
  t.not(incidentIdFor('44444444-4444-4444-8444-444444444444', 1), incidentId);
  t.regex(incidentId, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('trigger on a new stream records IncidentTriggered at the decision time', (t) => {
  deciderSpec(t, incidentDecider)
    .given([])
    .when({ kind: 'TriggerIncident', incident })
    .then([{ type: 'IncidentTriggered', data: { ...incident, triggeredAt: at } }]);
});

test('trigger of an ordinal that exists adds nothing (another evaluator won)', (t) => {
  deciderSpec(t, incidentDecider).given([triggered]).when({ kind: 'TriggerIncident', incident }).then([]);
});

test('acknowledge a triggered incident', (t) => {
  deciderSpec(t, incidentDecider)
    .given([triggered])
    .when({ kind: 'AcknowledgeIncident', incidentId })
    .then([acknowledged]);
});

test('acknowledge an acknowledged incident changes nothing', (t) => {
  deciderSpec(t, incidentDecider)
    .given([triggered, acknowledged])
    .when({ kind: 'AcknowledgeIncident', incidentId })
    .then([]);
});

test('acknowledge a resolved incident is a conflict naming the status', (t) => {
  deciderSpec(t, incidentDecider)
    .given([triggered, resolved])
    .when({ kind: 'AcknowledgeIncident', incidentId })
    .thenRejects('conflict', /resolved/);
});

test('manual resolution with a note, from triggered or acknowledged', (t) => {
  for (const history of [[triggered], [triggered, acknowledged]]) {
    deciderSpec(t, incidentDecider)
      .given(history)
      .when({ kind: 'ResolveIncident', incidentId, reason: 'manual', note: 'fixed the WLM queue' })
      .then([
        {
          type: 'IncidentResolved',
          data: { incidentId, by: TEST_CONTEXT.actor, at, reason: 'manual', note: 'fixed the WLM queue', value: null },
        },
      ]);
  }
});

test('manual resolution of a resolved incident is a conflict; automatic is a no-op', (t) => {
  deciderSpec(t, incidentDecider)
    .given([triggered, resolved])
    .when({ kind: 'ResolveIncident', incidentId, reason: 'manual' })
    .thenRejects('conflict');
  deciderSpec(t, incidentDecider)
    .given([triggered, resolved])
    .when({ kind: 'ResolveIncident', incidentId, reason: 'auto', value: 3 })
    .then([]);
});

test('notes are accepted in every state, also after resolution', (t) => {
  const noteId = '55555555-5555-4555-8555-555555555555';
  deciderSpec(t, incidentDecider)
    .given([triggered, resolved])
    .when({ kind: 'AddIncidentNote', incidentId, text: 'post-mortem link', noteId })
    .then([
      { type: 'IncidentNoteAdded', data: { incidentId, noteId, text: 'post-mortem link', by: TEST_CONTEXT.actor, at } },
    ]);
});

test('commands on an incident that does not exist are not found', (t) => {
  deciderSpec(t, incidentDecider).given([]).when({ kind: 'AcknowledgeIncident', incidentId }).thenRejects('not_found');
  deciderSpec(t, incidentDecider)
    .given([])
    .when({ kind: 'ResolveIncident', incidentId, reason: 'manual' })
    .thenRejects('not_found');
});
