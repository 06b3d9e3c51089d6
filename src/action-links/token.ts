/**
 * The action-link token: what a link says, in as few bytes as fit an SMS, signed with the tenant's
 * key. Pure.
 *
 *   version (1) · tenant (16) · incident (16) · link id (16) · action (1) · key generation (4)
 *   · expires, epoch seconds (4) · recipient kind (1: 0 user, 1 channel) · recipient id (16)
 *   · label length (1) · label (UTF-8, the masked address) · HMAC-SHA256 of all that, first 16 bytes
 *
 * base64url, about 150 characters. Reading the payload before the signature is checked is only for
 * finding the tenant's key; nothing else is believed until `verifyActionLinkToken` says so.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ACTION_LINK_ACTIONS, type ActionLinkAction } from '../events/action-link.js';

const VERSION = 1;
const MAC_BYTES = 16;
const MAX_LABEL_BYTES = 120;

export interface ActionLinkRecipient {
  kind: 'user' | 'channel';
  id: string;
  /** Masked address shown on the page and recorded in the actor (`g***@example.com`, `+44*******123`). */
  label: string;
}

export interface ActionLinkClaims {
  tenantId: string;
  incidentId: string;
  linkId: string;
  action: ActionLinkAction;
  /** Which of the tenant's keys signed it (the key stream's revision). */
  keyGeneration: number;
  /** Epoch seconds. */
  expiresAt: number;
  recipient: ActionLinkRecipient;
}

const uuidBytes = (uuid: string) => {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a UUID: ${uuid}`);
  return Buffer.from(hex, 'hex');
};
const uuidOf = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Cuts a label to whole characters within the byte budget. */
function labelBytes(label: string): Buffer {
  let bytes = Buffer.from(label, 'utf8');
  let text = label;
  while (bytes.length > MAX_LABEL_BYTES) {
    text = text.slice(0, -1);
    bytes = Buffer.from(text, 'utf8');
  }
  return bytes;
}

function payloadOf(claims: ActionLinkClaims): Buffer {
  const head = Buffer.alloc(1 + 16 * 3 + 1 + 4 + 4 + 1);
  head.writeUInt8(VERSION, 0);
  uuidBytes(claims.tenantId).copy(head, 1);
  uuidBytes(claims.incidentId).copy(head, 17);
  uuidBytes(claims.linkId).copy(head, 33);
  head.writeUInt8(ACTION_LINK_ACTIONS.indexOf(claims.action), 49);
  head.writeUInt32BE(claims.keyGeneration, 50);
  head.writeUInt32BE(claims.expiresAt, 54);
  head.writeUInt8(claims.recipient.kind === 'user' ? 0 : 1, 58);
  const label = labelBytes(claims.recipient.label);
  return Buffer.concat([head, uuidBytes(claims.recipient.id), Buffer.from([label.length]), label]);
}

const macOf = (key: Buffer, payload: Buffer) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

export function signActionLinkToken(claims: ActionLinkClaims, key: Buffer): string {
  const payload = payloadOf(claims);
  return Buffer.concat([payload, macOf(key, payload)]).toString('base64url');
}

/** The claims as written, unverified (null: not a token of this form at all). */
export function readActionLinkToken(token: string): { claims: ActionLinkClaims; payload: Buffer; mac: Buffer } | null {
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // Only the one spelling we write: base64 decoding ignores stray trailing characters and bits.
  if (bytes.toString('base64url') !== token) return null;
  const fixed = 59 + 16 + 1;
  if (bytes.length < fixed + MAC_BYTES || bytes.readUInt8(0) !== VERSION) return null;
  const labelLength = bytes.readUInt8(fixed - 1);
  if (bytes.length !== fixed + labelLength + MAC_BYTES) return null;
  const action = ACTION_LINK_ACTIONS[bytes.readUInt8(49)];
  const kind = bytes.readUInt8(58);
  if (!action || kind > 1) return null;
  const payload = bytes.subarray(0, fixed + labelLength);
  return {
    payload,
    mac: bytes.subarray(fixed + labelLength),
    claims: {
      tenantId: uuidOf(bytes.subarray(1, 17)),
      incidentId: uuidOf(bytes.subarray(17, 33)),
      linkId: uuidOf(bytes.subarray(33, 49)),
      action,
      keyGeneration: bytes.readUInt32BE(50),
      expiresAt: bytes.readUInt32BE(54),
      recipient: {
        kind: kind === 0 ? 'user' : 'channel',
        id: uuidOf(bytes.subarray(59, 75)),
        label: bytes.subarray(fixed, fixed + labelLength).toString('utf8'),
      },
    },
  };
}

export type TokenVerdict =
  | { ok: true; claims: ActionLinkClaims }
  | { ok: false; reason: 'malformed' | 'tampered' | 'revoked' | 'expired'; claims?: ActionLinkClaims };

/**
 * Checks a token against the tenant's current key: malformed, tampered (the signature does not
 * match), revoked (signed by a key rotated away), expired — in that order, so an expired link
 * whose signature is wrong is called tampered, never trusted for its dates.
 */
export function verifyActionLinkToken(
  token: string,
  currentKey: { key: Buffer; generation: number } | null,
  nowSeconds: number,
): TokenVerdict {
  const read = readActionLinkToken(token);
  if (!read) return { ok: false, reason: 'malformed' };
  const { claims } = read;
  if (!currentKey) return { ok: false, reason: 'tampered' };
  if (claims.keyGeneration !== currentKey.generation) {
    // Signed by an older key (or claiming a generation that never was): refused either way.
    return { ok: false, reason: claims.keyGeneration < currentKey.generation ? 'revoked' : 'tampered' };
  }
  const expected = macOf(currentKey.key, read.payload);
  if (read.mac.length !== expected.length || !timingSafeEqual(read.mac, expected))
    return { ok: false, reason: 'tampered' };
  if (claims.expiresAt <= nowSeconds) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}
