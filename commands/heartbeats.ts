/**
 * Heartbeat monitors: the command body as clients send it and the decider. The model is
 * src/events/heartbeat.ts; the routes are commands/heartbeat-routes.ts (settings, rotate, revoke)
 * and commands/heartbeat-ping-routes.ts (the public ping address).
 *
 * The decider never sees a token: the routes make one, hash it, and hand the decider the hash.
 */
import { z } from 'zod';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveHeartbeat,
  HEARTBEAT_LIMITS,
  initialHeartbeatState,
  type HeartbeatEvent,
  type HeartbeatSettings,
  type HeartbeatState,
} from '../src/events/heartbeat.js';
import { severitySchema } from '../src/events/vocabulary.js';

/** Default grace: five minutes past the expected interval before a missed ping pages. */
export const DEFAULT_GRACE_SECONDS = 300;

export const heartbeatBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  interval_seconds: z
    .number()
    .int()
    .min(HEARTBEAT_LIMITS.minIntervalSeconds)
    .max(HEARTBEAT_LIMITS.maxIntervalSeconds)
    .meta({ description: 'how often a ping is expected: 60 s to 31 days' }),
  grace_seconds: z.number().int().min(0).max(HEARTBEAT_LIMITS.maxGraceSeconds).default(DEFAULT_GRACE_SECONDS).meta({
    description: 'how long past the interval a ping may be late before it pages (default 300, at most 7 days)',
  }),
  escalation_policy_id: z.uuid().meta({ description: 'an escalation policy of the tenant: who is paged' }),
  severity: severitySchema.default('high'),
  enabled: z.boolean().default(true),
});
export type HeartbeatBody = z.infer<typeof heartbeatBodySchema>;

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
