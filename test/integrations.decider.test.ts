/**
 * The integration decider (commands/integrations.ts), given/when/then: it records settings and the
 * routing key's keyed hash only (never a key), keeps a rotated-away key working for the grace asked
 * for (none after a revocation), refuses a change of kind and what does not exist, and records
 * nothing for a change that changes nothing.
 */
import test from 'ava';
import { integrationBodySchema, integrationDecider, toIntegrationSettings } from '../commands/integrations.js';
import type { IntegrationEvent, IntegrationSettings } from '../src/events/integration.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const ID = '00000000-0000-4000-8000-0000000000e1';
const POLICY = '00000000-0000-4000-8000-0000000000c1';
const settings: IntegrationSettings = toIntegrationSettings(
  ID,
  integrationBodySchema.parse({ name: 'Airflow', kind: 'events_v2', escalation_policy_id: POLICY }),
);
const key = { keyHash: 'a'.repeat(64), keyHint: 'wxyz' };
const next = { keyHash: 'b'.repeat(64), keyHint: 'abcd' };
const created: IntegrationEvent = { type: 'IntegrationCreated', data: { ...settings, ...key } };
const revoked: IntegrationEvent = { type: 'IntegrationKeyRevoked', data: { integrationId: ID } };

test('a body takes the Events API v2 severities onto ours by default', (t) => {
  t.deepEqual(settings.severityMap, { critical: 'critical', error: 'high', warning: 'medium', info: 'low' });
  t.is(settings.defaultSeverity, 'high');
  t.false(integrationBodySchema.safeParse({ name: 'x', kind: 'nagios', escalation_policy_id: POLICY }).success);
});

test('create records the settings and the hashed key; a second create of the id is a conflict', (t) => {
  const spec = deciderSpec(t, integrationDecider);
  spec.given([]).when({ kind: 'CreateIntegration', settings, key }).then([created]);
  spec.given([created]).when({ kind: 'CreateIntegration', settings, key }).thenRejects('conflict');
});

test('update records a change, nothing for the same settings, and refuses a change of kind', (t) => {
  const spec = deciderSpec(t, integrationDecider);
  const renamed = { ...settings, name: 'Airflow prod' };
  spec
    .given([created])
    .when({ kind: 'UpdateIntegration', settings: renamed })
    .then([{ type: 'IntegrationUpdated', data: renamed }]);
  spec.given([created]).when({ kind: 'UpdateIntegration', settings }).then([]);
  spec
    .given([created])
    .when({ kind: 'UpdateIntegration', settings: { ...settings, kind: 'sns' } })
    .thenRejects('conflict', /kind cannot change/);
  spec.given([]).when({ kind: 'UpdateIntegration', settings }).thenRejects('not_found');
});

test('rotation keeps the replaced key for the grace asked for; none with 0 or after a revocation', (t) => {
  const spec = deciderSpec(t, integrationDecider);
  const until = new Date(TEST_CONTEXT.now.getTime() + 3600_000).toISOString();
  spec
    .given([created])
    .when({ kind: 'RotateIntegrationKey', integrationId: ID, key: next, graceSeconds: 3600 })
    .then([
      {
        type: 'IntegrationKeyRotated',
        data: { integrationId: ID, ...next, previousKeyHash: key.keyHash, previousValidUntil: until },
      },
    ]);
  const withoutGrace: IntegrationEvent = {
    type: 'IntegrationKeyRotated',
    data: { integrationId: ID, ...next, previousKeyHash: null, previousValidUntil: null },
  };
  spec
    .given([created])
    .when({ kind: 'RotateIntegrationKey', integrationId: ID, key: next, graceSeconds: 0 })
    .then([withoutGrace]);
  spec
    .given([created, revoked])
    .when({ kind: 'RotateIntegrationKey', integrationId: ID, key: next, graceSeconds: 3600 })
    .then([withoutGrace]);
});

test('revoke ends the keys once; delete ends the integration', (t) => {
  const spec = deciderSpec(t, integrationDecider);
  spec.given([created]).when({ kind: 'RevokeIntegrationKey', integrationId: ID }).then([revoked]);
  spec.given([created, revoked]).when({ kind: 'RevokeIntegrationKey', integrationId: ID }).then([]);
  const deleted: IntegrationEvent = { type: 'IntegrationDeleted', data: { integrationId: ID } };
  spec.given([created]).when({ kind: 'DeleteIntegration', integrationId: ID }).then([deleted]);
  spec.given([created, deleted]).when({ kind: 'DeleteIntegration', integrationId: ID }).thenRejects('not_found');
});
