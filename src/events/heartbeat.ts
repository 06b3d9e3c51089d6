/**
 * Heartbeat monitors (dead-man's switches), the model. Three kinds of stream:
 *   `heartbeat-<id>`: the monitor's settings and its ping address (created, updated, token rotated
 *     or revoked, deleted). Its revision is the ETag the API hands out.
 *   `heartbeatPings-<id>`: one HeartbeatPinged per accepted ping. Kept apart so that a job pinging
 *     every minute never moves the settings' ETag (an edit in the console would otherwise lose to
 *     every ping), and appended without reading (the ping address is checked against the read model).
 *   `heartbeat-token-key`: the deployment's one HMAC key for ping tokens (HeartbeatTokenKeyMade,
 *     sealed at rest like channel secrets). A ping names no tenant, so the key is deployment-wide;
 *     it lives in the log, not in SECRETS_KEY, so rotating SECRETS_KEY leaves every address working.
 *
 * The log never holds a ping token: only its keyed hash (HMAC-SHA256) and its last four characters.
 */
import { z } from 'zod';
import { severitySchema } from './vocabulary.js';

import { HEARTBEAT_LIMITS } from '../contract/bodies/heartbeats.js';

export { HEARTBEAT_LIMITS };

export const PING_STATUSES = ['success', 'fail'] as const;
export type PingStatus = (typeof PING_STATUSES)[number];

export const heartbeatSettingsFields = {
  heartbeatId: z.uuid(),
  name: z.string().min(1).max(200),
  intervalSeconds: z.number().int().min(HEARTBEAT_LIMITS.minIntervalSeconds).max(HEARTBEAT_LIMITS.maxIntervalSeconds),
  graceSeconds: z.number().int().min(0).max(HEARTBEAT_LIMITS.maxGraceSeconds),
  escalationPolicyId: z.uuid(),
  severity: severitySchema,
  enabled: z.boolean(),
};

/** The address's keyed hash (hex HMAC-SHA256) and its last four characters (to tell addresses apart). */
const tokenFields = { tokenHash: z.string().regex(/^[0-9a-f]{64}$/), tokenHint: z.string().max(8) };

export const heartbeatEvents = {
  HeartbeatCreated: z.object({ ...heartbeatSettingsFields, ...tokenFields }),
  HeartbeatUpdated: z.object(heartbeatSettingsFields),
  /** A new address; the old one stops working at once. */
  HeartbeatTokenRotated: z.object({ heartbeatId: z.uuid(), ...tokenFields }),
  /** No address until the next rotation: every ping is refused. The monitor keeps watching. */
  HeartbeatTokenRevoked: z.object({ heartbeatId: z.uuid() }),
  HeartbeatDeleted: z.object({ heartbeatId: z.uuid() }),
  HeartbeatPinged: z.object({
    heartbeatId: z.uuid(),
    status: z.enum(PING_STATUSES),
    message: z.string().max(HEARTBEAT_LIMITS.maxMessageChars).nullable(),
    at: z.iso.datetime(),
  }),
  HeartbeatTokenKeyMade: z.object({ key: z.string().min(1), at: z.iso.datetime() }),
};

/** The token key is sealed at rest (src/eventstore/encrypting.ts, via channel-secrets.ts). */
export const heartbeatEventSecrets = {
  HeartbeatTokenKeyMade: (
    data: Record<string, unknown>,
    replace: (secret: string) => string,
  ): Record<string, unknown> => (typeof data.key === 'string' ? { ...data, key: replace(data.key) } : data),
};

type Data<K extends keyof typeof heartbeatEvents> = z.infer<(typeof heartbeatEvents)[K]>;
export type HeartbeatSettings = Data<'HeartbeatUpdated'>;
export type HeartbeatPingedData = Data<'HeartbeatPinged'>;

export type HeartbeatEvent =
  | { type: 'HeartbeatCreated'; data: Data<'HeartbeatCreated'> }
  | { type: 'HeartbeatUpdated'; data: Data<'HeartbeatUpdated'> }
  | { type: 'HeartbeatTokenRotated'; data: Data<'HeartbeatTokenRotated'> }
  | { type: 'HeartbeatTokenRevoked'; data: Data<'HeartbeatTokenRevoked'> }
  | { type: 'HeartbeatDeleted'; data: Data<'HeartbeatDeleted'> };

export const HEARTBEAT_STREAM_PREFIX = 'heartbeat-';
export const heartbeatStream = (id: string) => `${HEARTBEAT_STREAM_PREFIX}${id}`;
export const heartbeatPingStream = (id: string) => `heartbeatPings-${id}`;
export const HEARTBEAT_TOKEN_KEY_STREAM = 'heartbeat-token-key';

/** The subject of a heartbeat's incidents (src/process/subject-incidents.ts). */
export const heartbeatSubject = (id: string) => `heartbeat:${id}`;
export const heartbeatIdOfSubject = (subject: string): string | null =>
  subject.startsWith('heartbeat:') ? subject.slice('heartbeat:'.length) : null;

export interface HeartbeatState {
  status: 'absent' | 'active' | 'deleted';
  settings?: HeartbeatSettings;
  /** Whether the monitor has a ping address now (false after a revocation, until a rotation). */
  hasToken: boolean;
}

export const initialHeartbeatState = (): HeartbeatState => ({ status: 'absent', hasToken: false });

export function evolveHeartbeat(state: HeartbeatState, event: HeartbeatEvent): HeartbeatState {
  switch (event.type) {
    case 'HeartbeatCreated': {
      const { tokenHash: _hash, tokenHint: _hint, ...settings } = event.data;
      return { status: 'active', settings, hasToken: true };
    }
    case 'HeartbeatUpdated':
      return { ...state, settings: event.data };
    case 'HeartbeatTokenRotated':
      return { ...state, hasToken: true };
    case 'HeartbeatTokenRevoked':
      return { ...state, hasToken: false };
    case 'HeartbeatDeleted':
      return { ...state, status: 'deleted' };
  }
}
