/**
 * The heartbeat decider (commands/heartbeats.ts), given/when/then: it records settings and the
 * ping address's keyed hash only (never a token), refuses what does not exist, and records nothing
 * for a change that changes nothing (a retried save, a second revocation).
 */
import test from 'ava';
import { heartbeatBodySchema, heartbeatDecider, toHeartbeatSettings } from '../commands/heartbeats.js';
import type { HeartbeatEvent, HeartbeatSettings } from '../src/events/heartbeat.js';
import { deciderSpec } from './support/decider-spec.js';

const ID = '00000000-0000-4000-8000-0000000000b1';
const POLICY = '00000000-0000-4000-8000-0000000000c1';
const settings: HeartbeatSettings = {
  heartbeatId: ID,
  name: 'nightly load',
  intervalSeconds: 3600,
  graceSeconds: 300,
  escalationPolicyId: POLICY,
  severity: 'high',
  enabled: true,
};
const token = { tokenHash: 'a'.repeat(64), tokenHint: 'wxyz' };
const created: HeartbeatEvent = { type: 'HeartbeatCreated', data: { ...settings, ...token } };

test('create records the settings and the hashed address; a second create of the id is a conflict', (t) => {
  const spec = deciderSpec(t, heartbeatDecider);
  spec.given([]).when({ kind: 'CreateHeartbeat', settings, token }).then([created]);
  spec.given([created]).when({ kind: 'CreateHeartbeat', settings, token }).thenRejects('conflict');
});

test('update records a change, and nothing for the same settings again', (t) => {
  const spec = deciderSpec(t, heartbeatDecider);
  const changed = { ...settings, intervalSeconds: 7200 };
  spec
    .given([created])
    .when({ kind: 'UpdateHeartbeat', settings: changed })
    .then([{ type: 'HeartbeatUpdated', data: changed }]);
  spec.given([created]).when({ kind: 'UpdateHeartbeat', settings }).then([]);
  spec.given([]).when({ kind: 'UpdateHeartbeat', settings }).thenRejects('not_found');
});

test('rotate records a new hashed address; revoke removes it once; both need the heartbeat', (t) => {
  const spec = deciderSpec(t, heartbeatDecider);
  const next = { tokenHash: 'b'.repeat(64), tokenHint: 'abcd' };
  const revoked: HeartbeatEvent = { type: 'HeartbeatTokenRevoked', data: { heartbeatId: ID } };
  spec
    .given([created])
    .when({ kind: 'RotateHeartbeatToken', heartbeatId: ID, token: next })
    .then([{ type: 'HeartbeatTokenRotated', data: { heartbeatId: ID, ...next } }]);
  spec.given([created]).when({ kind: 'RevokeHeartbeatToken', heartbeatId: ID }).then([revoked]);
  spec.given([created, revoked]).when({ kind: 'RevokeHeartbeatToken', heartbeatId: ID }).then([]);
  // A revoked heartbeat gets a new address by rotation.
  spec
    .given([created, revoked])
    .when({ kind: 'RotateHeartbeatToken', heartbeatId: ID, token: next })
    .then([{ type: 'HeartbeatTokenRotated', data: { heartbeatId: ID, ...next } }]);
  spec.given([]).when({ kind: 'RotateHeartbeatToken', heartbeatId: ID, token: next }).thenRejects('not_found');
});

test('delete records the deletion; after it, nothing else is accepted', (t) => {
  const spec = deciderSpec(t, heartbeatDecider);
  const deleted: HeartbeatEvent = { type: 'HeartbeatDeleted', data: { heartbeatId: ID } };
  spec.given([created]).when({ kind: 'DeleteHeartbeat', heartbeatId: ID }).then([deleted]);
  spec.given([created, deleted]).when({ kind: 'DeleteHeartbeat', heartbeatId: ID }).thenRejects('not_found');
  spec.given([created, deleted]).when({ kind: 'UpdateHeartbeat', settings }).thenRejects('not_found');
  spec
    .given([created, deleted])
    .when({ kind: 'RotateHeartbeatToken', heartbeatId: ID, token })
    .thenRejects('not_found');
});

test('the body: defaults, and the interval and grace bounds', (t) => {
  const body = heartbeatBodySchema.parse({
    name: ' nightly load ',
    interval_seconds: 3600,
    escalation_policy_id: POLICY,
  });
  t.deepEqual(toHeartbeatSettings(ID, body), { ...settings, name: 'nightly load' });
  const refused = [
    { interval_seconds: 59 },
    { interval_seconds: 31 * 86_400 + 1 },
    { interval_seconds: 90.5 },
    { interval_seconds: 3600, grace_seconds: -1 },
    { interval_seconds: 3600, grace_seconds: 7 * 86_400 + 1 },
    { interval_seconds: 3600, token: 'hb_x' },
  ];
  for (const fields of refused)
    t.false(
      heartbeatBodySchema.safeParse({ name: 'n', escalation_policy_id: POLICY, ...fields }).success,
      JSON.stringify(fields),
    );
});
