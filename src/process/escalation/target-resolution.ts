/**
 * Who a stage reaches, resolved when it fires (SPEC.md: target resolution happens at notification
 * time): a user through the media the stage names (email, sms, chat); a group as its active members
 * now; a schedule as whoever is on call now; a channel through its own configuration. A target
 * that resolves to nobody is kept, with the reason, so the stage records a failure for it.
 */
import type { EscalationTarget } from '../../events/escalation-policy.js';
import type { Recipient } from '../../events/escalation.js';
import type { ChannelType } from '../../events/vocabulary.js';
import type { NotifyTarget } from '../../gateways/notify/port.js';
import type { OnCallSource } from '../../oncall/schedule-definition.js';

export interface ContactUser {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  active: boolean;
}

export interface ContactChannel {
  id: string;
  type: ChannelType;
  config: Record<string, unknown>;
  /** Webhook channels sign their requests with it. */
  signingSecret?: string;
}

/** The person on call, and which layer or override put them there (absent from directories that do not say). */
export interface OnCallContact extends ContactUser {
  source?: OnCallSource;
}

/** Read-model lookups, passed in by the composition root; each scoped to the incident's tenant. */
export interface TargetDirectory {
  user(tenantId: string, userId: string): Promise<ContactUser | null>;
  activeGroupMembers(tenantId: string, groupId: string): Promise<ContactUser[] | null>;
  onCall(tenantId: string, scheduleId: string, at: Date): Promise<OnCallContact | null | 'no_schedule'>;
  channel(tenantId: string, channelId: string): Promise<ContactChannel | null>;
}

export interface ResolvedRecipient {
  recipient: Recipient;
  /** Absent when the recipient is unreachable (see recipient.unreachable). */
  target?: NotifyTarget;
  /**
   * Who it is and why they were chosen, for the escalation preview (the events keep only the
   * recipient): the person a user, group or schedule target led to, and for a schedule the layer
   * or override on call then.
   */
  person?: { id: string; name: string };
  onCallSource?: OnCallSource;
}

const unreachable = (via: EscalationTarget, reason: string, person?: ContactUser): ResolvedRecipient => ({
  recipient: { key: null, via: { type: via.type, id: via.id }, medium: null, unreachable: reason },
  ...(person ? { person: { id: person.id, name: person.name } } : {}),
});

function userRecipients(via: EscalationTarget, user: OnCallContact): ResolvedRecipient[] {
  const key = `user:${user.id}`;
  const who = { person: { id: user.id, name: user.name }, ...(user.source ? { onCallSource: user.source } : {}) };
  return via.channels.map((medium): ResolvedRecipient => {
    const recipient = (reason: string | null): Recipient => ({
      key,
      via: { type: via.type, id: via.id },
      medium,
      unreachable: reason,
    });
    if (medium === 'email')
      return { recipient: recipient(null), target: { medium: 'email', config: { recipients: [user.email] } }, ...who };
    if (medium === 'sms') {
      return user.phone
        ? { recipient: recipient(null), target: { medium: 'sms', userId: user.id, phone: user.phone }, ...who }
        : { recipient: recipient('the user has no phone number'), ...who };
    }
    return { recipient: recipient('a user has no chat address; target a chat channel instead'), ...who };
  });
}

export function channelTarget(channel: ContactChannel): NotifyTarget {
  const config = channel.config as never;
  switch (channel.type) {
    case 'chat':
      return { medium: 'chat', channelId: channel.id, config };
    case 'email':
      return { medium: 'email', channelId: channel.id, config };
    case 'pager':
      return { medium: 'pager', channelId: channel.id, config };
    case 'webhook':
      return { medium: 'webhook', channelId: channel.id, config, signingSecret: channel.signingSecret ?? '' };
  }
}

async function resolveTarget(
  directory: TargetDirectory,
  tenantId: string,
  target: EscalationTarget,
  at: Date,
): Promise<ResolvedRecipient[]> {
  switch (target.type) {
    case 'user': {
      const user = await directory.user(tenantId, target.id);
      if (!user) return [unreachable(target, 'the user no longer exists')];
      if (!user.active) return [unreachable(target, 'the user is deactivated', user)];
      return userRecipients(target, user);
    }
    case 'group': {
      const members = await directory.activeGroupMembers(tenantId, target.id);
      if (members === null) return [unreachable(target, 'the group no longer exists')];
      if (members.length === 0) return [unreachable(target, 'the group has no active members')];
      return members.flatMap((member) => userRecipients(target, member));
    }
    case 'schedule': {
      const onCall = await directory.onCall(tenantId, target.id, at);
      if (onCall === 'no_schedule') return [unreachable(target, 'the schedule no longer exists')];
      if (!onCall) return [unreachable(target, 'nobody is on call')];
      return userRecipients(target, onCall);
    }
    case 'channel': {
      const channel = await directory.channel(tenantId, target.id);
      if (!channel) return [unreachable(target, 'the notification channel no longer exists')];
      return [
        {
          recipient: {
            key: `channel:${channel.id}`,
            via: { type: 'channel', id: channel.id },
            medium: channel.type,
            unreachable: null,
          },
          target: channelTarget(channel),
        },
      ];
    }
  }
}

/** Every recipient of a stage's targets; the same person over the same medium once, whichever target led to them. */
export async function resolveStageTargets(
  directory: TargetDirectory,
  tenantId: string,
  targets: EscalationTarget[],
  at: Date,
): Promise<ResolvedRecipient[]> {
  const resolved = (await Promise.all(targets.map((target) => resolveTarget(directory, tenantId, target, at)))).flat();
  const seen = new Set<string>();
  return resolved.filter(({ recipient }) => {
    if (recipient.key === null) return true;
    const id = `${recipient.key}:${recipient.medium}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
