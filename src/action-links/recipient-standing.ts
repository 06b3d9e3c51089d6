/**
 * Whether a link's recipient may act now, judged as the API would judge the person: a user must
 * still exist in the tenant, be active, and hold `incidents:write` by the same effective-permission
 * resolution the API uses (overrides, groups, role, tenant defaults; src/auth/iam-permission-resolver.ts);
 * a channel must still exist. Asked when a link is minted (none for a recipient who could not use
 * it) and again each time it is opened or used: the token says who it was sent to, never that they
 * may still act.
 */
import type { ResolvedPrincipal } from '../auth/iam-permission-resolver.js';
import type { Permission } from '../access/permissions.js';
import type { Principal } from '../access/principal.js';
import type { ActionLinkRecipient } from './token.js';

/** Both actions need it, as POST /incidents/{id}/acknowledge and /resolve do. */
export const ACTION_LINK_PERMISSION: Permission = 'incidents:write';

export type RecipientRefusal = 'recipient_inactive' | 'recipient_gone' | 'recipient_not_allowed' | 'channel_gone';

/** Null: the recipient may act; otherwise why not. */
export type RecipientStanding = (tenantId: string, recipient: ActionLinkRecipient) => Promise<RecipientRefusal | null>;

/** A user's standing and permissions as resolved for the API. Pure. */
export function userRefusal(resolved: ResolvedPrincipal): RecipientRefusal | null {
  switch (resolved.standing) {
    case 'removed':
    case 'no_record':
      return 'recipient_gone';
    case 'deactivated':
      return 'recipient_inactive';
    case 'active':
      return resolved.effective[ACTION_LINK_PERMISSION].allowed ? null : 'recipient_not_allowed';
  }
}

export function recipientStanding(deps: {
  /** The API's permission resolver (cached per user until an IAM change in the tenant). */
  resolve: (principal: Principal) => Promise<ResolvedPrincipal>;
  channelExists: (tenantId: string, channelId: string) => Promise<boolean>;
}): RecipientStanding {
  return async (tenantId, recipient) => {
    if (recipient.kind === 'channel') return (await deps.channelExists(tenantId, recipient.id)) ? null : 'channel_gone';
    // The user as a principal with no token roles: a user record's own role decides, and without a record the user is gone.
    const principal: Principal = {
      subject: `action-link:${recipient.id}`,
      userId: recipient.id,
      tenantId,
      envId: '',
      roles: [],
    };
    return userRefusal(await deps.resolve(principal));
  };
}
