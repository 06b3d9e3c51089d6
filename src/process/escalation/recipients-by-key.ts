/**
 * Reaching again someone a stage already resolved (an all-clear on resolution, or a delivery cut
 * short by a crash): by the recipient key recorded when the stage fired, against the directory now.
 */
import type { Recipient } from '../../events/escalation.js';
import { channelTarget, type ResolvedRecipient, type TargetDirectory } from './target-resolution.js';

export async function reachAgain(
  directory: TargetDirectory,
  tenantId: string,
  recipient: Recipient,
): Promise<ResolvedRecipient> {
  const gone = (reason: string): ResolvedRecipient => ({ recipient: { ...recipient, unreachable: reason } });
  if (recipient.key === null || recipient.medium === null) return { recipient };
  const [kind, id] = recipient.key.split(':') as [string, string];
  if (kind === 'channel') {
    const channel = await directory.channel(tenantId, id);
    return channel ? { recipient, target: channelTarget(channel) } : gone('the notification channel no longer exists');
  }
  const user = await directory.user(tenantId, id);
  if (!user) return gone('the user no longer exists');
  if (recipient.medium === 'email')
    return { recipient, target: { medium: 'email', config: { recipients: [user.email] } } };
  if (recipient.medium === 'sms' && user.phone)
    return { recipient, target: { medium: 'sms', userId: user.id, phone: user.phone } };
  return gone(`the user cannot be reached by ${recipient.medium}`);
}
