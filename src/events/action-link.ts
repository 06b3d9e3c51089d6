/**
 * Action links (acknowledge or resolve from a page, src/action-links): the events.
 *
 *   `action-link-keys-<tenantId>`: ActionLinkKeyRotated, one per key the tenant has had; the last
 *     one signs and verifies links, so appending another refuses every earlier link. The key is
 *     sealed at rest like channel secrets (src/eventstore/encrypting.ts, via channel-secrets.ts).
 *   `action-link-<linkId>`: ActionLinkUsed, appended expecting "no stream", so a link is spent
 *     exactly once however many instances race for it: the event store itself decides.
 */
import { z } from 'zod';

export const ACTION_LINK_KEY_STREAM_PREFIX = 'action-link-keys-';
export const ACTION_LINK_STREAM_PREFIX = 'action-link-';
export const ACTION_LINK_ACTIONS = ['acknowledge', 'resolve'] as const;
export type ActionLinkAction = (typeof ACTION_LINK_ACTIONS)[number];

export const actionLinkKeyStream = (tenantId: string) => `${ACTION_LINK_KEY_STREAM_PREFIX}${tenantId}`;
export const actionLinkStream = (linkId: string) => `${ACTION_LINK_STREAM_PREFIX}${linkId}`;

export const actionLinkEvents = {
  /** `key`: 32 random bytes, base64url (sealed in the log). `rotatedBy`: who asked; `system:action-links` for the first key. */
  ActionLinkKeyRotated: z.object({
    tenantId: z.uuid(),
    key: z.string().min(1),
    rotatedBy: z.string(),
    at: z.iso.datetime(),
  }),
  /** `actor`: who the action was recorded as (`recipient:<masked address>` or a user id). */
  ActionLinkUsed: z.object({
    linkId: z.uuid(),
    incidentId: z.uuid(),
    action: z.enum(ACTION_LINK_ACTIONS),
    actor: z.string(),
    at: z.iso.datetime(),
  }),
};

/** The secret fields of these events, for encryption at rest. */
export const actionLinkEventSecrets = {
  ActionLinkKeyRotated: (
    data: Record<string, unknown>,
    replace: (secret: string) => string,
  ): Record<string, unknown> => (typeof data.key === 'string' ? { ...data, key: replace(data.key) } : data),
};
