/**
 * Heartbeat monitors: the command body as clients send it and the decider. The model is
 * src/events/heartbeat.ts; the routes are commands/heartbeat-routes.ts (settings, rotate, revoke)
 * and commands/heartbeat-ping-routes.ts (the public ping address).
 *
 * The decider never sees a token: the routes make one, hash it, and hand the decider the hash.
 */
import type { HeartbeatBody } from '../src/contract/bodies/heartbeats.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveHeartbeat,
  initialHeartbeatState,
  type HeartbeatEvent,
  type HeartbeatSettings,
  type HeartbeatState,
} from '../src/events/heartbeat.js';

export { DEFAULT_GRACE_SECONDS, heartbeatBodySchema } from '../src/contract/bodies/heartbeats.js';

export const toHeartbeatSettings = (heartbeatId: string, body: HeartbeatBody): HeartbeatSettings => ({
  heartbeatId,
  name: body.name,
  intervalSeconds: body.interval_seconds,
  graceSeconds: body.grace_seconds,
  escalationPolicyId: body.escalation_policy_id,
  severity: body.severity,
  enabled: body.enabled,
});

/** A token as the decider sees it: its keyed hash and hint, never the token. */
export interface HashedToken {
  tokenHash: string;
  tokenHint: string;
}

export type HeartbeatCommand =
  | { kind: 'CreateHeartbeat'; settings: HeartbeatSettings; token: HashedToken }
  | { kind: 'UpdateHeartbeat'; settings: HeartbeatSettings }
  | { kind: 'RotateHeartbeatToken'; heartbeatId: string; token: HashedToken }
  | { kind: 'RevokeHeartbeatToken'; heartbeatId: string }
  | { kind: 'DeleteHeartbeat'; heartbeatId: string };

const sameSettings = (a: HeartbeatSettings, b: HeartbeatSettings) =>
  (Object.keys(a) as (keyof HeartbeatSettings)[]).every((key) => a[key] === b[key]);

export const heartbeatDecider: Decider<HeartbeatState, HeartbeatCommand, HeartbeatEvent> = {
  initialState: initialHeartbeatState,
  evolve: evolveHeartbeat,
  decide: (command, state) => {
    if (command.kind === 'CreateHeartbeat') {
      if (state.status !== 'absent') throw rejectConflict('a heartbeat with this id already exists');
      return [{ type: 'HeartbeatCreated', data: { ...command.settings, ...command.token } }];
    }
    if (state.status !== 'active') throw rejectNotFound('heartbeat');
    switch (command.kind) {
      case 'UpdateHeartbeat':
        // A PUT that changes nothing records nothing (a retried save).
        if (state.settings && sameSettings(state.settings, command.settings)) return [];
        return [{ type: 'HeartbeatUpdated', data: command.settings }];
      case 'RotateHeartbeatToken':
        return [{ type: 'HeartbeatTokenRotated', data: { heartbeatId: command.heartbeatId, ...command.token } }];
      case 'RevokeHeartbeatToken':
        // Revoking twice changes nothing: the address is already gone.
        if (!state.hasToken) return [];
        return [{ type: 'HeartbeatTokenRevoked', data: { heartbeatId: command.heartbeatId } }];
      case 'DeleteHeartbeat':
        return [{ type: 'HeartbeatDeleted', data: { heartbeatId: command.heartbeatId } }];
    }
  },
};
