/**
 * The read-model side of policy references, on a real embedded read store: what the projection
 * indexes (targetIds, channelIds), the "which policies reference X" lookups, and which alert rules
 * keep a policy from being deleted. Alert-rule documents are seeded in the shape their projection writes.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enabledRulesUsingPolicy } from '../queries/escalation-policy-references.js';
import {
  ESCALATION_POLICIES,
  escalationPoliciesProjection,
  type EscalationPolicyDoc,
} from '../projections/escalation-policies.js';
import { policiesReferencingChannel, policiesReferencingTarget } from '../queries/escalation-policies.js';
import type { RecordedEvent } from '../src/eventstore/port.js';
import type { EscalationPolicyData } from '../src/events/escalation-policy.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import type { Doc } from '../src/readstore/port.js';

const tenant = randomUUID();
const otherTenant = randomUUID();
const [user, schedule, channel] = [randomUUID(), randomUUID(), randomUUID()];

const openStore = () => openSqliteReadStore(join(mkdtempSync(join(tmpdir(), 'esc-refs-')), 'r.db'));

let position = 0n;
function recorded(type: string, data: Record<string, unknown>, revision: number, tenantId = tenant): RecordedEvent {
  position += 1n;
  return {
    id: randomUUID(),
    streamName: `escalationPolicy-${String(data.policyId)}`,
    type,
    data,
    revision: BigInt(revision),
    position,
    metadata: {
      tenantId,
      actor: 'test',
      correlationId: 'c',
      causationId: 'c',
      occurredAt: `2026-03-01T12:00:0${revision}.000Z`,
    },
  };
}

const definition = (
  policyId: string,
  name: string,
  targets: EscalationPolicyData['stages'][number]['targets'],
): EscalationPolicyData => ({
  policyId,
  name,
  description: null,
  repeatIntervalMinutes: 0,
  stages: [{ stageOrder: 1, delayMinutes: 0, targets }],
});

async function project(store: ReturnType<typeof openStore>, events: RecordedEvent[]) {
  await store.applyBatch({ projection: escalationPoliciesProjection.name, version: 1 }, events, (event, writer) =>
    escalationPoliciesProjection.apply(event, writer),
  );
}

test('the projection indexes every target once and channel targets separately, and follows replace and delete', async (t) => {
  const store = openStore();
  const id = randomUUID();
  const targets = [
    { type: 'user' as const, id: user, channels: ['email' as const] },
    { type: 'channel' as const, id: channel, channels: [] },
  ];
  const created = recorded(
    'EscalationPolicyCreated',
    {
      ...definition(id, 'Both', targets),
      stages: [
        { stageOrder: 1, delayMinutes: 0, targets },
        { stageOrder: 2, delayMinutes: 5, targets },
      ],
    },
    0,
  );
  await project(store, [created, created]);
  const doc = await store.get<EscalationPolicyDoc>(ESCALATION_POLICIES, id);
  t.deepEqual(doc?.targetIds, [user, channel]);
  t.deepEqual(doc?.channelIds, [channel]);
  t.deepEqual(doc?.stages[1], {
    stage_order: 2,
    delay_minutes: 5,
    targets: [
      { type: 'user', id: user, channels: ['email'] },
      { type: 'channel', id: channel, channels: [] },
    ],
  });

  await project(store, [
    recorded(
      'EscalationPolicyReplaced',
      { ...definition(id, 'Schedule only', [{ type: 'schedule', id: schedule, channels: ['sms'] }]) },
      1,
    ),
  ]);
  const replaced = await store.get<EscalationPolicyDoc>(ESCALATION_POLICIES, id);
  t.like(replaced, {
    name: 'Schedule only',
    targetIds: [schedule],
    channelIds: [],
    revision: 1,
    createdAt: created.metadata.occurredAt,
  });

  await project(store, [recorded('EscalationPolicyDeleted', { policyId: id }, 2)]);
  t.is(await store.get(ESCALATION_POLICIES, id), null);
  await store.close();
});

test('reference lookups name the policies of the tenant that target an id, sorted by name', async (t) => {
  const store = openStore();
  await project(store, [
    recorded(
      'EscalationPolicyCreated',
      { ...definition(randomUUID(), 'Zulu', [{ type: 'channel', id: channel, channels: [] }]) },
      0,
    ),
    recorded(
      'EscalationPolicyCreated',
      {
        ...definition(randomUUID(), 'Alpha', [
          { type: 'user', id: user, channels: ['sms'] },
          { type: 'channel', id: channel, channels: [] },
        ]),
      },
      0,
    ),
    recorded(
      'EscalationPolicyCreated',
      { ...definition(randomUUID(), 'Schedule', [{ type: 'schedule', id: schedule, channels: ['chat'] }]) },
      0,
    ),
    recorded(
      'EscalationPolicyCreated',
      { ...definition(randomUUID(), 'Foreign', [{ type: 'channel', id: channel, channels: [] }]) },
      0,
      otherTenant,
    ),
  ]);
  const names = async (id: string) =>
    (await policiesReferencingChannel(store, tenant, id)).map((policy) => policy.name);
  t.deepEqual(await names(channel), ['Alpha', 'Zulu']);
  t.deepEqual(await names(channel.toUpperCase()), ['Alpha', 'Zulu']);
  t.true(
    (await policiesReferencingChannel(store, tenant, channel)).every(
      (policy) => typeof policy.id === 'string' && Object.keys(policy).length === 2,
    ),
    '[{ id, name }]',
  );
  t.deepEqual(await policiesReferencingChannel(store, tenant, user), [], 'a user target is not a channel reference');
  t.deepEqual(await policiesReferencingTarget(store, tenant, user), ['Alpha']);
  t.deepEqual(await policiesReferencingTarget(store, tenant, schedule), ['Schedule']);
  t.deepEqual(await policiesReferencingTarget(store, otherTenant, channel), ['Foreign']);
  t.deepEqual(await policiesReferencingTarget(store, tenant, randomUUID()), []);
  await store.close();
});

test('only enabled, undeleted rules of the tenant keep a policy from being deleted', async (t) => {
  const store = openStore();
  const policy = randomUUID();
  const rule = (name: string, fields: Partial<Doc>): Doc => ({
    id: randomUUID(),
    tenantId: tenant,
    name,
    escalationPolicyId: policy,
    isEnabled: true,
    deleted: false,
    ...fields,
  });
  const queueTime = rule('Queue time', {});
  const cpu = rule('CPU', { deleted: undefined });
  const seeded = [
    queueTime,
    cpu,
    rule('Disabled', { isEnabled: false }),
    rule('Deleted', { isEnabled: false, deleted: true }),
    rule('Deleted but marked enabled', { deleted: true }),
    rule('Other policy', { escalationPolicyId: randomUUID() }),
    rule('Other tenant', { tenantId: otherTenant }),
  ];
  await store.applyBatch({ projection: 'seed', version: 1 }, [{ position: 1n }], async (_event, writer) => {
    for (const doc of seeded) await writer.upsert('alertRules', doc);
  });
  t.deepEqual(await enabledRulesUsingPolicy(store, tenant, policy), [
    { id: cpu.id, name: 'CPU' },
    { id: queueTime.id, name: 'Queue time' },
  ]);
  t.deepEqual(await enabledRulesUsingPolicy(store, tenant, randomUUID()), []);
  await store.close();
});

test('with no alert-rule read model yet, no rule references a policy', async (t) => {
  const store = openStore();
  t.deepEqual(await enabledRulesUsingPolicy(store, tenant, randomUUID()), []);
  await store.close();
});
