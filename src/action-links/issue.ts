/**
 * Minting the two links a page carries (acknowledge, resolve), one pair per recipient and page,
 * each with its own link id, signed with the tenant's current key, valid for ACTION_LINK_TTL_HOURS.
 * Pager services get none: they acknowledge in their own tool, and it tells us (pager-event.ts).
 * Nor does a recipient who could not use them (a viewer, a user without `incidents:write`;
 * recipient-standing.ts): their page is sent without links.
 */
import { randomUUID } from 'node:crypto';
import type { Recipient } from '../events/escalation.js';
import type { AlertActions, NotifyTarget } from '../gateways/notify/port.js';
import { maskEmail, maskPhone } from '../gateways/notify/target-description.js';
import type { RecipientStanding } from './recipient-standing.js';
import type { SigningKeys } from './signing-keys.js';
import { signActionLinkToken, type ActionLinkRecipient } from './token.js';

export interface ActionLinkIssuer {
  /** The links for one delivery, or undefined when the medium carries none. */
  linksFor(
    tenantId: string,
    incidentId: string,
    recipient: Recipient,
    target: NotifyTarget,
  ): Promise<AlertActions | undefined>;
}

/** Who the link acts as: a user by id; a channel by its (masked) address, or its id when it has none to show. */
export function linkRecipientOf(recipient: Recipient, target: NotifyTarget): ActionLinkRecipient | null {
  const [kind, id] = (recipient.key ?? '').split(':') as [string, string | undefined];
  if ((kind !== 'user' && kind !== 'channel') || !id) return null;
  switch (target.medium) {
    case 'pager':
      return null;
    case 'email':
      return { kind, id, label: target.config.recipients.map(maskEmail).join(', ') };
    case 'sms':
      return { kind, id, label: maskPhone(target.phone) };
    default:
      return { kind, id, label: `channel:${target.channelId}` };
  }
}

const actionLinkPath = (token: string) => `/a/${token}`;

export function actionLinkIssuer(deps: {
  keys: SigningKeys;
  recipientStanding: RecipientStanding;
  publicUrl: string;
  ttlMs: number;
  now: () => Date;
}): ActionLinkIssuer {
  return {
    async linksFor(tenantId, incidentId, recipient, target) {
      const who = linkRecipientOf(recipient, target);
      if (!who || (await deps.recipientStanding(tenantId, who))) return undefined;
      const { key, generation } = await deps.keys.ensure(tenantId);
      const expires = deps.now().getTime() + deps.ttlMs;
      const url = (action: 'acknowledge' | 'resolve') =>
        `${deps.publicUrl}${actionLinkPath(
          signActionLinkToken(
            {
              tenantId,
              incidentId,
              linkId: randomUUID(),
              action,
              keyGeneration: generation,
              expiresAt: Math.floor(expires / 1000),
              recipient: who,
            },
            key,
          ),
        )}`;
      return {
        acknowledgeUrl: url('acknowledge'),
        resolveUrl: url('resolve'),
        expiresAt: new Date(expires).toISOString(),
      };
    },
  };
}
