import test from 'ava';
import {
  escalationPolicyDecider,
  type EscalationPolicyCommand,
  type EscalationPolicyDefinition,
} from '../commands/escalation-policies.js';
import type { EscalationPolicyEvent } from '../src/events/escalation-policy.js';
import { deciderSpec } from './support/decider-spec.js';

const policyId = '9d3c1b2a-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const scheduleId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const channelId = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';

const firstVersion: EscalationPolicyDefinition = {
  name: 'Warehouse on-call',
  description: null,
  stages: [
    { stageOrder: 1, delayMinutes: 0, targets: [{ type: 'schedule', id: scheduleId, channels: ['sms', 'email'] }] },
  ],
  repeatIntervalMinutes: 0,
};
const secondVersion: EscalationPolicyDefinition = {
  name: 'Warehouse on-call v2',
  description: 'adds the DBA channel after 15 minutes',
  stages: [
    ...firstVersion.stages,
    { stageOrder: 2, delayMinutes: 15, targets: [{ type: 'channel', id: channelId, channels: [] }] },
  ],
  repeatIntervalMinutes: 30,
};

const created: EscalationPolicyEvent = { type: 'EscalationPolicyCreated', data: { policyId, ...firstVersion } };
const replaced: EscalationPolicyEvent = { type: 'EscalationPolicyReplaced', data: { policyId, ...secondVersion } };
const deleted: EscalationPolicyEvent = { type: 'EscalationPolicyDeleted', data: { policyId } };

const create: EscalationPolicyCommand = { kind: 'CreateEscalationPolicy', policyId, ...firstVersion };
const replace: EscalationPolicyCommand = { kind: 'ReplaceEscalationPolicy', policyId, ...secondVersion };
const remove: EscalationPolicyCommand = { kind: 'DeleteEscalationPolicy', policyId };

test('create on a new stream records the whole policy', (t) => {
  deciderSpec(t, escalationPolicyDecider).given([]).when(create).then([created]);
});

test('create on an existing stream is a conflict', (t) => {
  deciderSpec(t, escalationPolicyDecider)
    .given([created])
    .when(create)
    .thenRejects('conflict', /already exists/);
});

test('create on a deleted stream is a conflict: ids are never reused', (t) => {
  deciderSpec(t, escalationPolicyDecider).given([created, deleted]).when(create).thenRejects('conflict');
});

test('replace of a live policy records the whole new version', (t) => {
  deciderSpec(t, escalationPolicyDecider).given([created]).when(replace).then([replaced]);
});

test('replace after an earlier replace records the new version again', (t) => {
  const back: EscalationPolicyCommand = { kind: 'ReplaceEscalationPolicy', policyId, ...firstVersion };
  deciderSpec(t, escalationPolicyDecider)
    .given([created, replaced])
    .when(back)
    .then([{ type: 'EscalationPolicyReplaced', data: { policyId, ...firstVersion } }]);
});

test('delete of a live policy records EscalationPolicyDeleted', (t) => {
  deciderSpec(t, escalationPolicyDecider).given([created, replaced]).when(remove).then([deleted]);
});

const missing = [
  ['a policy that never existed', [] as EscalationPolicyEvent[]],
  ['a deleted policy', [created, deleted]],
] as const;

for (const [title, history] of missing) {
  test(`replace of ${title} is not found`, (t) => {
    deciderSpec(t, escalationPolicyDecider)
      .given([...history])
      .when(replace)
      .thenRejects('not_found', /escalation policy/);
  });
  test(`delete of ${title} is not found`, (t) => {
    deciderSpec(t, escalationPolicyDecider)
      .given([...history])
      .when(remove)
      .thenRejects('not_found', /escalation policy/);
  });
}
